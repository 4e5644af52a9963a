import BmobWire
import Testing

/// ``S3XMLReader``: the XML S3 and its clients write, and each rejection's ``S3XMLError/Code`` and position.
@Suite struct S3XMLReaderTests {
    @Test func readsElementsTextAndAttributes() throws {
        let root = try S3XMLReader.parse(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- leading comment -->
            <Root xmlns="http://s3.amazonaws.com/doc/2006-03-01/" a='1' b = "x y">
              <Leaf>text</Leaf>
              <Empty/>
              <Empty2></Empty2>
              <?pi ignored?>
              <s3:Prefixed>p</s3:Prefixed>
            </Root>
            <!-- trailing comment -->

            """)
        #expect(root.name == "Root")
        #expect(root.attributes == ["xmlns": "http://s3.amazonaws.com/doc/2006-03-01/", "a": "1", "b": "x y"])
        #expect(root.children.map(\.name) == ["Leaf", "Empty", "Empty2", "s3:Prefixed"])
        #expect(root.child("Leaf")?.text == "text")
        #expect(root.child("Empty") == S3XMLElement("Empty"))
        #expect(root.child("Empty2") == S3XMLElement("Empty2"))
        #expect(root.child("Prefixed")?.text == "p")
        #expect(root.children[3].localName == "Prefixed")
        #expect(root.text.allSatisfy { $0 == " " || $0 == "\n" })
    }

    @Test func resolvesEntitiesAndCharacterReferences() throws {
        let root = try S3XMLReader.parse("<a>&amp;&lt;&gt;&quot;&apos; &#65;&#x42;&#x1F600;&#0000067;</a>")
        #expect(root.text == "&<>\"' AB😀C")
        let attribute = try S3XMLReader.parse("<a v=\"&quot;q&quot; &#x26; &lt;\"/>")
        #expect(attribute.attributes["v"] == "\"q\" & <")
    }

    @Test func readsCDATAAndSkipsComments() throws {
        let root = try S3XMLReader.parse("<a>x<![CDATA[<b>&amp;]]]]>y<!-- <c/> -->z</a>")
        #expect(root.text == "x<b>&amp;]]y" + "z")
        #expect(root.children.isEmpty)
    }

    @Test func normalisesLineEnds() throws {
        #expect(try S3XMLReader.parse("<a>1\r\n2\r3\n4</a>").text == "1\n2\n3\n4")
        #expect(try S3XMLReader.parse("<a>&#13;&#10;</a>").text == "\r\n")
        #expect(try S3XMLReader.parse("<a v=\"1\r\n2\t3\n4\"/>").attributes["v"] == "1 2 3 4")
        #expect(try S3XMLReader.parse("<a><![CDATA[1\r\n2]]></a>").text == "1\n2")
    }

    @Test func acceptsByteOrderMarkAndBytes() throws {
        #expect(try S3XMLReader.parse([0xEF, 0xBB, 0xBF] + Array("<a>é</a>".utf8)).text == "é")
        #expect(try S3XMLReader.parse(ArraySlice(Array("<a/>".utf8))).name == "a")
    }

    @Test(arguments: [
        ("", S3XMLError.Code.malformed, 0),
        ("   ", .malformed, 3),
        ("text", .malformed, 0),
        ("<a>", .malformed, 0),
        ("<a><b></a>", .mismatchedTag, 6),
        ("<a></b>", .mismatchedTag, 3),
        ("<a></a><b/>", .malformed, 7),
        ("<a></a>x", .malformed, 7),
        ("<a x></a>", .malformed, 4),
        ("<a x=1></a>", .malformed, 5),
        ("<a x='1></a>", .malformed, 8),
        ("<a x='<'/>", .malformed, 6),
        ("<a x='1'y='2'/>", .malformed, 8),
        ("<a x='1' x='2'/>", .malformed, 9),
        ("<1a/>", .malformed, 1),
        ("< a/>", .malformed, 1),
        ("<a", .malformed, 0),
        ("<a><!-- open</a>", .malformed, 3),
        ("<a><![CDATA[x</a>", .malformed, 3),
        ("<a><!ELEMENT a ANY></a>", .malformed, 3),
        ("<?xml version='1.0'", .malformed, 0),
        ("<!-->", .malformed, 0),
        ("<!x><a/>", .malformed, 0),
        ("<!DOCTYPE a><a/>", .doctypeNotAllowed, 0),
        ("<?xml version=\"1.0\"?><!DOCTYPE a [<!ENTITY x \"y\">]><a>&x;</a>", .doctypeNotAllowed, 21),
        ("<a><!DOCTYPE a></a>", .doctypeNotAllowed, 3),
        ("<a>&x;</a>", .invalidEntity, 3),
        ("<a>&amp</a>", .invalidEntity, 3),
        ("<a>& b</a>", .invalidEntity, 3),
        ("<a>&#;</a>", .invalidEntity, 3),
        ("<a>&#x;</a>", .invalidEntity, 3),
        ("<a>&#0;</a>", .invalidEntity, 3),
        ("<a>&#x1;</a>", .invalidEntity, 3),
        ("<a>&#xD800;</a>", .invalidEntity, 3),
        ("<a>&#xFFFE;</a>", .invalidEntity, 3),
        ("<a>&#x110000;</a>", .invalidEntity, 3),
        ("<a>&#99999999999999;</a>", .invalidEntity, 3),
        ("<a>&#12a;</a>", .invalidEntity, 3),
        ("<a>&#X41;</a>", .invalidEntity, 3),
        ("<a>\u{1}</a>", .invalidCharacter, 3),
        ("<a>\u{0}</a>", .invalidCharacter, 3),
        ("<a>\u{FFFF}</a>", .invalidCharacter, 3),
    ])
    func rejects(text: String, code: S3XMLError.Code, offset: Int) {
        #expect {
            try S3XMLReader.parse(text)
        } throws: { error in
            guard let error = error as? S3XMLError else { return false }
            return error.code == code && error.offset == offset && !error.message.isEmpty
        }
    }

    /// Names may be non-ASCII, and U+007F is a character XML allows.
    @Test func acceptsNonASCIINamesAndDelete() throws {
        let root = try S3XMLReader.parse("<é>\u{7F}</é>")
        #expect(root.name == "é")
        #expect(root.text == "\u{7F}")
    }

    @Test func rejectsInvalidUTF8() {
        for bytes: [UInt8] in [[0x3C, 0x61, 0x3E, 0xFF, 0x3C, 0x2F, 0x61, 0x3E], [0x3C, 0x61, 0x3E, 0xC3], [0xED, 0xA0, 0x80]] {
            #expect(throws: S3XMLError.self) { try S3XMLReader.parse(bytes) }
            #expect((try? S3XMLReader.parse(bytes)) == nil)
            do {
                _ = try S3XMLReader.parse(bytes)
            } catch {
                #expect(error.code == .invalidUTF8)
            }
        }
    }

    @Test func boundsDepth() throws {
        func nested(_ depth: Int) -> String {
            String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        }
        _ = try S3XMLReader.parse(nested(S3XMLReader.maximumDepth))
        #expect(throws: S3XMLError(.tooDeep, "elements nest deeper than 16", offset: 48)) {
            try S3XMLReader.parse(nested(S3XMLReader.maximumDepth + 1))
        }
        // Deep input far past the bound stops at the bound, without exhausting the stack.
        #expect(throws: S3XMLError.self) { try S3XMLReader.parse(String(repeating: "<a>", count: 1_000_000)) }
    }

    @Test func boundsElementCount() throws {
        func flat(_ count: Int) -> String {
            "<r>" + String(repeating: "<p/>", count: count - 1) + "</r>"
        }
        #expect(try S3XMLReader.parse(flat(S3XMLReader.maximumElements)).children.count == S3XMLReader.maximumElements - 1)
        do {
            _ = try S3XMLReader.parse(flat(S3XMLReader.maximumElements + 1))
            Issue.record("too many elements accepted")
        } catch {
            #expect(error.code == .tooManyElements)
        }
    }

    @Test func boundsSize() {
        let big = "<a>" + String(repeating: "x", count: S3XMLReader.maximumBytes) + "</a>"
        do {
            _ = try S3XMLReader.parse(big)
            Issue.record("oversized document accepted")
        } catch {
            #expect(error.code == .tooLarge)
            #expect(error.offset == nil)
        }
    }

    /// Messages never quote the document.
    @Test func messagesDoNotQuoteInput() {
        for text in ["<secret></other>", "<a>&secret;</a>", "<a secret></a>", "<secret"] {
            do {
                _ = try S3XMLReader.parse(text)
                Issue.record("accepted")
            } catch {
                #expect(!error.description.contains("secret") && !error.description.contains("other"))
            }
        }
    }
}
