import BmobCore
import BmobWire
import Foundation

/// The requests of the history routes (`history`, `deleted`, `revert`, `restore`) and the reading of their
/// answers, shared by ``BmobObject``'s history methods, ``BmobChangeQuery`` and ``BmobChange``.
enum BmobHistoryWire {
    /// The changes of an answer's `results`, newest first as the server sent them.
    ///
    /// - Throws: ``BmobError/jsonParsingFailed`` when there is no `results` array or an entry lacks its `seq`,
    ///   `op` or `objectId`.
    static func changes(_ answer: JSONValue, className: String) throws(BmobError) -> [BmobChange] {
        guard let results = (answer["results"] ?? answer).arrayValue else { throw .jsonParsingFailed }
        var changes: [BmobChange] = []
        changes.reserveCapacity(results.count)
        for entry in results { changes.append(try BmobChange(json: entry, className: className)) }
        return changes
    }

    /// Checks paging arguments and adds them to `data`.
    ///
    /// - Throws: ``BmobError/invalidParameter(reason:)`` for a negative skip or a limit below 1.
    static func page(limit: Int, skip: Int, into data: inout [String: JSONValue]) throws(BmobError) {
        guard limit > 0 else { throw .invalidParameter(reason: "limit must be at least 1") }
        guard skip >= 0 else { throw .invalidParameter(reason: "skip must not be negative") }
        data["limit"] = .int(Int64(limit))
        if skip > 0 { data["skip"] = .int(Int64(skip)) }
    }

    /// Asks `restore` to bring back the deleted object `objectId` of `className`.
    static func restore(className: String, objectId: String) async throws(BmobError) {
        _ = try await BmobClient.shared.call(
            "restore", ["c": .string(className), "objectId": .string(objectId), "data": .object([:])])
    }

    /// The object `objectId` of `className` as the server has it now, with its editability known.
    static func fetch(className: String, objectId: String) async throws -> BmobObject {
        let object = BmobObject(className: className)
        object.objectId = objectId
        try await object.fetch()
        return object
    }

    /// `text` checked to be non-empty.
    static func required(_ text: String?, _ what: String) throws(BmobError) -> String {
        guard let text, !text.isEmpty else { throw .invalidParameter(reason: "\(what) is missing") }
        return text
    }
}
