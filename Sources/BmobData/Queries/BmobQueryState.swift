import BmobCore
import BmobWire
import Foundation

/// A ``BmobQuery``'s state, shared by every copy of the query: the parts of a BmobWire ``FindQuery`` as the
/// builder methods set them.
///
/// Thread safety: every member is read and written only while `lock` is held, which makes the
/// `@unchecked Sendable` sound.
final class BmobQueryState: @unchecked Sendable {
    let lock = NSLock()
    /// The `where` as parts that must all hold: one ``QueryCondition/field(path:constraints:)`` per field
    /// (with one constraint per operator, a later one replacing an earlier), `$or` and `$and` combinations of
    /// other queries, and at most one `$relatedTo`.
    var conditionParts: [QueryCondition] = []
    /// A condition that could not be encoded; running the query throws it.
    var conditionError: BmobError?
    var order: [OrderKey] = []
    var limitValue: Int?
    var skipValue: Int?
    var selectedKeys: [String]?
    var includedKeys: [String] = []
    var statisticsMode = false
    var groupByKeys: [String] = []
    var groupCountValue = false
    var sumKeys: [String] = []
    var averageKeys: [String] = []
    var maxKeys: [String] = []
    var minKeys: [String] = []
    var havingCondition: QueryCondition?
    var policy: BmobCachePolicy = .ignoreCache
    var cacheAge: TimeInterval = 24 * 60 * 60
    var clientValue: BmobClient = .shared

    /// The `where` condition: `nil` when nothing is set, the only part, or the `and` of the parts.
    var condition: QueryCondition? {
        switch conditionParts.count {
        case 0: nil
        case 1: conditionParts[0]
        default: .and(conditionParts)
        }
    }

    /// Keeps the first error of the query's conditions.
    func record(_ error: BmobError) {
        if conditionError == nil { conditionError = error }
    }

    /// Adds `constraint` to `path`'s field condition, replacing a constraint with the same operator (a second
    /// `lessThan` on a field moves the bound, as the operator object it becomes can hold one `$lt`).
    func constrain(_ path: String, _ constraint: FieldConstraint) {
        let name = Self.operatorName(constraint)
        for (index, part) in conditionParts.enumerated() {
            guard case .field(path, var constraints) = part else { continue }
            if let same = constraints.firstIndex(where: { Self.operatorName($0) == name }) {
                constraints[same] = constraint
            } else {
                constraints.append(constraint)
            }
            conditionParts[index] = .field(path: path, constraints: constraints)
            return
        }
        conditionParts.append(.field(path: path, constraints: [constraint]))
    }

    /// Sets the `$relatedTo` part, replacing an earlier one.
    func relate(to object: PointerValue, key: String) {
        conditionParts.removeAll { if case .relatedTo = $0 { true } else { false } }
        conditionParts.append(.relatedTo(object: object, key: key))
    }

    /// The operator a constraint is written with (`$lt`, `$regex`, `$nearSphere`, …).
    private static func operatorName(_ constraint: FieldConstraint) -> String {
        WhereEncoder.operators(constraint).first?.0 ?? ""
    }
}
