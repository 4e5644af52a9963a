extension SocketIOPacket {
    /// Decodes the text form of one packet.
    ///
    /// - Parameter text: One packet, such as `5:::{"name":"client_sub","args":["…"]}`; a frame holding a
    ///   `\u{FFFD}` batch goes through ``SocketIOFrameBatch`` first.
    /// - Throws: ``SocketIOError`` saying what is malformed, with the UTF-8 offset of the problem.
    package init(decoding text: String) throws(SocketIOError) {
        try self.init(decoding: Substring(text))
    }

    /// Decodes the text form of one packet, such as one member of a frame batch.
    ///
    /// The type must be one digit `0`…`8`; the id digits (at most ``SocketIOPacketID/maximum``), optionally
    /// followed by `+`; two `:` must follow the type and the id. Disconnect, heartbeat and noop packets may
    /// have an empty data field but no data; json, event and ack data must be well formed (see
    /// ``SocketIOPayload``). Fields of event JSON other than `name` and `args` are ignored.
    ///
    /// - Parameter text: One packet.
    /// - Throws: ``SocketIOError`` saying what is malformed, with the UTF-8 offset of the problem.
    package init(decoding text: Substring) throws(SocketIOError) {
        let utf8 = text.utf8
        func offset(_ index: Substring.Index) -> Int { utf8.distance(from: utf8.startIndex, to: index) }
        let colon = UInt8(ascii: ":")

        // Type: one digit, then ':'.
        var index = utf8.startIndex
        guard index != utf8.endIndex else { throw SocketIOError(.missingSeparator, "empty packet", offset: 0) }
        guard let digit = Self.digit(utf8[index]), let type = SocketIOPacketType(rawValue: digit) else {
            throw SocketIOError(.invalidType, "packet type must be a digit 0-8", offset: 0)
        }
        index = utf8.index(after: index)
        guard index != utf8.endIndex else {
            throw SocketIOError(.missingSeparator, "expected ':' after the packet type", offset: 1)
        }
        guard utf8[index] == colon else {
            throw SocketIOError(.invalidType, "packet type must be one digit followed by ':'", offset: 1)
        }
        index = utf8.index(after: index)

        // Id: optional digits, '+' only after digits, then ':'.
        var id: SocketIOPacketID?
        let idStart = index
        if let value = try Self.number(in: utf8, from: &index, offset: offset) {
            var ackWithData = false
            if index != utf8.endIndex, utf8[index] == UInt8(ascii: "+") {
                ackWithData = true
                index = utf8.index(after: index)
            }
            id = SocketIOPacketID(value, ackWithData: ackWithData)
        }
        guard index != utf8.endIndex else {
            throw SocketIOError(.missingSeparator, "expected ':' after the packet id", offset: offset(index))
        }
        guard utf8[index] == colon else {
            let message = index == idStart ? "packet id must be digits" : "packet id must be digits, then '+' or ':'"
            throw SocketIOError(.invalidID, message, offset: offset(index))
        }
        index = utf8.index(after: index)

        // Endpoint: anything up to the next ':'; the data field is the rest, when that ':' is there.
        let endpointStart = index
        while index != utf8.endIndex, utf8[index] != colon { index = utf8.index(after: index) }
        let endpoint = String(text[endpointStart..<index])
        var data: Substring?
        if index != utf8.endIndex { data = text[utf8.index(after: index)...] }
        let dataOffset = index == utf8.endIndex ? offset(index) : offset(index) + 1

        let payload = try Self.payload(type, data: data, dataOffset: dataOffset)
        self.init(payload, id: id, endpoint: endpoint)
    }

    /// The payload of a packet of `type` whose data field is `data` (nil when it is missing).
    private static func payload(
        _ type: SocketIOPacketType, data: Substring?, dataOffset: Int
    ) throws(SocketIOError) -> SocketIOPayload {
        switch type {
        case .disconnect, .heartbeat, .noop:
            if let data, !data.isEmpty {
                throw SocketIOError(.unexpectedData, "a \(type) packet carries no data", offset: dataOffset)
            }
            return type == .disconnect ? .disconnect : type == .heartbeat ? .heartbeat : .noop
        case .connect:
            return .connect(query: String(data ?? ""))
        case .message:
            return .message(String(data ?? ""))
        case .json:
            return .json(try parseJSON(data ?? "", offset: dataOffset))
        case .event:
            return try event(data ?? "", offset: dataOffset)
        case .ack:
            return try ack(data ?? "", offset: dataOffset)
        case .error:
            let data = data ?? ""
            guard let plus = data.utf8.firstIndex(of: UInt8(ascii: "+")) else {
                return .error(reason: String(data), advice: nil)
            }
            return .error(reason: String(data[..<plus]), advice: String(data[data.utf8.index(after: plus)...]))
        }
    }

    /// `{"name": <string>, "args": <array>?}`.
    private static func event(_ data: Substring, offset: Int) throws(SocketIOError) -> SocketIOPayload {
        guard case .object(let members) = try parseJSON(data, offset: offset) else {
            throw SocketIOError(.invalidEvent, "event data must be a JSON object", offset: offset)
        }
        guard case .string(let name) = members["name"] else {
            throw SocketIOError(.invalidEvent, "event data needs a string 'name'", offset: offset)
        }
        switch members["args"] {
        case nil:
            return .event(name: name, args: [])
        case .array(let args):
            return .event(name: name, args: args)
        default:
            throw SocketIOError(.invalidEvent, "event 'args' must be an array", offset: offset)
        }
    }

    /// `<id>` or `<id>+<JSON array>`; `<id>+` alone has no arguments.
    private static func ack(_ data: Substring, offset: Int) throws(SocketIOError) -> SocketIOPayload {
        let utf8 = data.utf8
        var index = utf8.startIndex
        let base = offset
        func position(_ index: Substring.Index) -> Int { base + utf8.distance(from: utf8.startIndex, to: index) }
        guard let acknowledged = try number(in: utf8, from: &index, offset: position) else {
            throw SocketIOError(.invalidAck, "ack data must start with the acknowledged id", offset: base)
        }
        if index == utf8.endIndex { return .ack(id: acknowledged, args: []) }
        guard utf8[index] == UInt8(ascii: "+") else {
            throw SocketIOError(.invalidAck, "expected '+' after the acknowledged id", offset: position(index))
        }
        index = utf8.index(after: index)
        if index == utf8.endIndex { return .ack(id: acknowledged, args: []) }
        guard case .array(let args) = try parseJSON(data[index...], offset: position(index)) else {
            throw SocketIOError(.invalidAck, "ack arguments must be a JSON array", offset: position(index))
        }
        return .ack(id: acknowledged, args: args)
    }

    /// Parses `data` as JSON, reporting errors at `offset` plus the parser's byte offset.
    private static func parseJSON(_ data: Substring, offset: Int) throws(SocketIOError) -> JSONValue {
        do {
            return try JSONParser.parse(data.utf8)
        } catch {
            throw SocketIOError(.invalidJSON, "invalid JSON data: \(error.message)", offset: offset + error.offset)
        }
    }

    /// Reads decimal digits at `index`, moving past them; nil when there are none.
    ///
    /// - Throws: ``SocketIOError/Code/idTooLarge`` beyond ``SocketIOPacketID/maximum``.
    private static func number(
        in utf8: Substring.UTF8View, from index: inout Substring.Index, offset: (Substring.Index) -> Int
    ) throws(SocketIOError) -> UInt64? {
        let start = index
        var value: UInt64 = 0
        while index != utf8.endIndex, let digit = digit(utf8[index], upTo: 9) {
            // value <= 2^53 - 1 before this step, so value * 10 + 9 cannot overflow a UInt64.
            value = value * 10 + UInt64(digit)
            guard value <= SocketIOPacketID.maximum else {
                throw SocketIOError(.idTooLarge, "id above 2^53 - 1", offset: offset(start))
            }
            index = utf8.index(after: index)
        }
        return index == start ? nil : value
    }

    /// The value of an ASCII digit no greater than `limit`.
    private static func digit(_ byte: UInt8, upTo limit: UInt8 = 8) -> UInt8? {
        byte >= UInt8(ascii: "0") && byte - UInt8(ascii: "0") <= limit ? byte - UInt8(ascii: "0") : nil
    }
}
