package import BmobStore
package import BmobWire

/// Turns stored objects into the JSON clients see: fields plus `objectId`, `createdAt`, `updatedAt` (as
/// `YYYY-MM-DD HH:MM:SS` in the app's output zone, UTC by default) and `ACL` when set. `_User` objects are
/// redacted for the viewer (``UserPrivacy``) when the renderer has one.
package struct ObjectRenderer: Sendable {
    /// Seconds east of UTC for dates in responses.
    package var offsetSeconds: Int
    /// Who sees `_User` objects, and what is hidden from them; `nil` renders users whole (the master key, or
    /// a user's own login answer).
    package var privacy: UserPrivacy?

    package init(offsetSeconds: Int = 0, privacy: UserPrivacy? = nil) {
        self.offsetSeconds = offsetSeconds
        self.privacy = privacy
    }

    /// A date in responses.
    package func date(_ milliseconds: Int64) -> String {
        BmobDateFormat.format(secondsSince1970: Int64((Double(milliseconds) / 1000).rounded(.down)), offsetSeconds: offsetSeconds)
    }

    /// ``date(_:)`` appended as a JSON string.
    package func appendDate(_ milliseconds: Int64, to output: inout [UInt8]) {
        BmobDateFormat.appendJSONString(
            secondsSince1970: Int64((Double(milliseconds) / 1000).rounded(.down)), offsetSeconds: offsetSeconds,
            to: &output)
    }

    /// The object as a client sees it, optionally keeping only `keys` (system fields always stay).
    package func render(_ object: StoredObject, keys: Set<String>? = nil) -> [String: JSONValue] {
        var members: [String: JSONValue]
        if keys == nil, offsetSeconds == 0 {
            // The common case: the stored fields as they are, with room for the system fields.
            members = object.fields
            members.reserveCapacity(object.fields.count + 4)
        } else {
            members = [:]
            members.reserveCapacity(object.fields.count + 4)
            for (name, value) in object.fields where keys?.contains(name) ?? true {
                members[name] = offsetSeconds == 0 ? value : shiftDates(value)
            }
        }
        members["objectId"] = .string(object.objectId)
        members["createdAt"] = .string(date(object.createdAt))
        members["updatedAt"] = .string(date(object.updatedAt))
        if let acl = object.acl, keys?.contains("ACL") ?? true { members["ACL"] = acl }
        if let privacy, object.className == "_User" { privacy.redact(&members, objectId: object.objectId) }
        return members
    }

    /// Date values are stored in UTC; a non-zero output zone rewrites them too, so all dates agree.
    private func shiftDates(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            if members["__type"]?.stringValue == "Date", let iso = members["iso"]?.stringValue,
                let milliseconds = BmobDateFormat.parse(iso)
            {
                return ["__type": "Date", "iso": .string(date(milliseconds))]
            }
            return .object(members.mapValues(shiftDates))
        case .array(let elements):
            return .array(elements.map(shiftDates))
        default:
            return value
        }
    }
}
