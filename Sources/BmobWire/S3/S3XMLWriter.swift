/// Writes S3 XML documents: an XML declaration and the element tree, compact (no indentation), text and
/// attribute values escaped.
///
/// What ``S3XMLReader`` reads back from a written document equals the tree written, with one exception
/// made on purpose: characters XML 1.0 cannot carry at all (controls other than tab and line ends, U+FFFE,
/// U+FFFF) are written as U+FFFD, as ``representable(_:)`` shows.
package enum S3XMLWriter {
    /// The declaration every document starts with.
    package static let declaration = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    /// S3's namespace, declared on the root of its results.
    package static let namespace = "http://s3.amazonaws.com/doc/2006-03-01/"

    /// `root` as a UTF-8 document. An element's text is written before its children; the names are written as
    /// given, so they must be XML names.
    package static func document(_ root: S3XMLElement) -> String {
        var output = declaration
        write(root, to: &output)
        return output
    }

    /// `text` escaped for character data: `&`, `<`, `>` as entities, carriage returns as `&#13;` (so that
    /// they survive line-end normalisation), characters XML cannot carry as U+FFFD.
    package static func escapeText(_ text: some StringProtocol) -> String {
        escape(text, attribute: false)
    }

    /// `value` escaped for a double-quoted attribute: as ``escapeText(_:)``, plus `"` and the whitespace
    /// characters an attribute would otherwise turn into spaces.
    package static func escapeAttribute(_ value: some StringProtocol) -> String {
        escape(value, attribute: true)
    }

    /// `text` as a reader will get it back from a written document: with U+FFFD for each character XML 1.0
    /// cannot carry.
    package static func representable(_ text: String) -> String {
        guard !text.unicodeScalars.allSatisfy({ S3XMLReader.isXMLCharacter($0.value) }) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            result.append(S3XMLReader.isXMLCharacter(scalar.value) ? scalar : "\u{FFFD}")
        }
        return String(result)
    }

    private static func write(_ element: S3XMLElement, to output: inout String) {
        output += "<" + element.name
        // `xmlns` first, then the rest by name, so that output is deterministic.
        let names = element.attributes.keys.sorted { ($0 == "xmlns") != ($1 == "xmlns") ? $0 == "xmlns" : $0 < $1 }
        for name in names {
            output += " " + name + "=\"" + escapeAttribute(element.attributes[name] ?? "") + "\""
        }
        if element.text.isEmpty, element.children.isEmpty {
            output += "/>"
            return
        }
        output += ">" + escapeText(element.text)
        for child in element.children {
            write(child, to: &output)
        }
        output += "</" + element.name + ">"
    }

    private static func escape(_ text: some StringProtocol, attribute: Bool) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\r": output += "&#13;"
            case "\"" where attribute: output += "&quot;"
            case "\n" where attribute: output += "&#10;"
            case "\t" where attribute: output += "&#9;"
            default:
                output.unicodeScalars.append(S3XMLReader.isXMLCharacter(scalar.value) ? scalar : "\u{FFFD}")
            }
        }
        return output
    }
}
