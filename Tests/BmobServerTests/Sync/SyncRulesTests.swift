import BmobServer
import BmobWire
import Testing

/// The pure rules of the sync functions: argument validators and read sets.
@Suite("Sync function rules")
struct SyncRulesTests {
    @Test("validators accept their shapes, refuse others with the argument's path, and refuse undeclared arguments")
    func validators() {
        let shape: [String: SyncArgument] = [
            "text": .string, "count": .optional(.int), "score": .double, "tags": .array(.string),
            "owner": .optional(.id), "kind": .union([.literal("a"), .literal("b")]),
            "meta": .optional(.object(["flag": .bool])),
        ]
        let good: [String: JSONValue] = ["text": "x", "score": 3, "tags": ["a"], "kind": "b", "meta": ["flag": true]]
        #expect(SyncArgument.mismatch(good, shape, at: "args") == nil)
        #expect(SyncArgument.mismatch(["score": 1, "tags": [], "kind": "a"], shape, at: "args") == "args.text is missing")
        var wrong = good
        wrong["tags"] = ["a", 2]
        #expect(SyncArgument.mismatch(wrong, shape, at: "args") == "args.tags[1] must be a string")
        wrong = good
        wrong["count"] = 1.5
        #expect(SyncArgument.mismatch(wrong, shape, at: "args") == "args.count must be a whole number")
        wrong = good
        wrong["kind"] = "c"
        #expect(SyncArgument.mismatch(wrong, shape, at: "args") == "args.kind matches none of its allowed shapes")
        wrong = good
        wrong["owner"] = "../etc"
        #expect(SyncArgument.mismatch(wrong, shape, at: "args") == "args.owner must be an objectId")
        wrong = good
        wrong["extra"] = 1
        #expect(SyncArgument.mismatch(wrong, shape, at: "args") == "args.extra is not an argument of this function")
        wrong = good
        wrong["meta"] = ["flag": true, "more": 1]
        #expect(SyncArgument.mismatch(wrong, shape, at: "args") == "args.meta.more is not an argument of this function")
        // Optional members may be null as well as missing.
        wrong = good
        wrong["count"] = .null
        #expect(SyncArgument.mismatch(wrong, shape, at: "args") == nil)
    }
}
