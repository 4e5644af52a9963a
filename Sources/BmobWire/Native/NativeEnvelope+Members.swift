extension NativeEnvelope {
    /// ``successPlaintext(data:)`` with more top-level members beside `result` and `data` (keys sorted), for
    /// answers that clients read in more than one place.
    package static func successPlaintext(data: some Collection<UInt8>, extraMembers: [String: JSONValue]) -> [UInt8] {
        guard !extraMembers.isEmpty else { return successPlaintext(data: data) }
        var plaintext = Array(#"{"result":{"code":200,"message":"ok"}"#.utf8)
        for (name, value) in extraMembers.sorted(by: { $0.key < $1.key }) {
            plaintext.append(UInt8(ascii: ","))
            JSONValue.appendString(name, to: &plaintext)
            plaintext.append(UInt8(ascii: ":"))
            value.appendJSON(to: &plaintext)
        }
        plaintext.append(contentsOf: #","data":"#.utf8)
        plaintext.append(contentsOf: data)
        plaintext.append(UInt8(ascii: "}"))
        return plaintext
    }
}
