import BmobHTTP
package import BmobWire

extension BmobRequest {
    /// The body as a JSON object: an empty body is `{}`; anything else that is not a JSON object is 107.
    /// The Content-Type is not checked, since Bmob clients send JSON under several types.
    package func jsonObjectBody() throws(BmobAPIError) -> [String: JSONValue] {
        if http.body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return [:] }
        let value: JSONValue
        do {
            value = try JSONParser.parse(http.body)
        } catch {
            throw BmobAPIError(.invalidJSON, "invalid JSON: \(error)")
        }
        guard case .object(let members) = value else {
            throw BmobAPIError(.invalidJSON, "the body must be a JSON object")
        }
        return members
    }

    /// A path parameter; the router guarantees it for its own patterns.
    package func parameter(_ name: String) -> String {
        parameters[name] ?? ""
    }
}
