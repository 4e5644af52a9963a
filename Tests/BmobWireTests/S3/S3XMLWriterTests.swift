import BmobWire
import Testing

/// ``S3XMLWriter``: escaping, and documents that ``S3XMLReader`` reads back unchanged.
@Suite struct S3XMLWriterTests {
    @Test func writesDeclarationAndCompactElements() {
        let root = S3XMLElement(
            "Root", attributes: ["b": "2", "xmlns": "urn:x", "a": "1"],
            children: [.leaf("Leaf", "text"), S3XMLElement("Empty")])
        #expect(
            S3XMLWriter.document(root)
                == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Root xmlns=\"urn:x\" a=\"1\" b=\"2\"><Leaf>text</Leaf><Empty/></Root>")
    }

    @Test func escapesTextAndAttributes() {
        #expect(S3XMLWriter.escapeText("a&b<c>d\"e'f\r\n\tg") == "a&amp;b&lt;c&gt;d\"e'f&#13;\n\tg")
        #expect(S3XMLWriter.escapeAttribute("a&b<c>d\"e'f\r\n\tg") == "a&amp;b&lt;c&gt;d&quot;e'f&#13;&#10;&#9;g")
        #expect(S3XMLWriter.escapeText("]]>") == "]]&gt;")
        #expect(S3XMLWriter.escapeText("x\u{0}y\u{1B}z\u{FFFE}") == "x\u{FFFD}y\u{FFFD}z\u{FFFD}")
        #expect(S3XMLWriter.escapeText("ключ 😀") == "ключ 😀")
    }

    @Test func representableReplacesWhatXMLCannotCarry() {
        #expect(S3XMLWriter.representable("plain\ttext\n") == "plain\ttext\n")
        #expect(S3XMLWriter.representable("\u{0}\u{8}\u{B}\u{FFFF}ok") == "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}ok")
    }

    /// Trees with awkward text read back equal after writing.
    @Test(arguments: [
        "", " ", "  leading and trailing  ", "a&b<c>d\"e'f", "line\nfeed", "carriage\rreturn\r\n", "tab\there",
        "]]>", "<![CDATA[x]]>", "&amp;", "ключ 😀 e\u{301}", "<!-- not a comment -->",
    ])
    func roundTripsText(text: String) throws {
        let tree = S3XMLElement(
            "s3:Root", attributes: ["xmlns:s3": "urn:s3", "v": text],
            children: [.leaf("Key", text), S3XMLElement("Mixed", text: text, children: [.leaf("Inner", text)])])
        #expect(try S3XMLReader.parse(S3XMLWriter.document(tree)) == tree)
    }

    @Test func roundTripsWhatItReads() throws {
        let document = """
            <?xml version="1.0"?>
            <ListPartsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
              <Part><PartNumber>1</PartNumber><ETag>&quot;x&quot;</ETag></Part>
              <!-- comment -->
              <Empty/>
            </ListPartsResult>
            """
        let tree = try S3XMLReader.parse(document)
        #expect(try S3XMLReader.parse(S3XMLWriter.document(tree)) == tree)
    }
}
