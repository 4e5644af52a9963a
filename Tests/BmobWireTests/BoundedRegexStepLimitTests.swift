import BmobWire
import Testing
import BmobServerCodecs

/// ``BoundedRegex/evaluate(_:stepLimit:)``: linear matching still costs program × subject, so callers holding
/// untrusted subjects give each evaluation a step limit and learn how much work it took.
@Suite struct BoundedRegexStepLimitTests {
    /// About 1 MB of `b`s: no `a`, so the probe below keeps every thread alive to the end.
    static let megabyte = String(repeating: "b", count: 1 << 20)

    @Test func theProbePatternGivesUpAtItsLimitOnAMegabyte() throws {
        // The security probe: 13 s on a 1 MB field before any limit. It compiles (4,001 instructions, within
        // maximumInstructionCount) and is stopped by its step limit after a few thousand characters.
        let regex = try BoundedRegex(pattern: "(.*a){1000}b")
        let limit = 1_000_000
        let evaluation = regex.evaluate(Self.megabyte, stepLimit: limit)
        #expect(evaluation.matched == nil)
        #expect(evaluation.exceededStepLimit)
        // The limit is checked after each character: at most one character's work (≤ 2 × program) past it.
        #expect(evaluation.steps > limit)
        #expect(evaluation.steps <= limit + 2 * regex.instructionCount)
    }

    @Test func aSimplePatternOnAMegabyteStaysFarBelowTheServerDefault() throws {
        let text = Self.megabyte + "needle"
        for (pattern, options) in [("needle", ""), ("NEEDLE$", "i"), ("^b+needle$", ""), ("[a-z]+@example\\.com", "")] {
            let regex = try BoundedRegex(pattern: pattern, options: options)
            let evaluation = regex.evaluate(text, stepLimit: 100_000_000)
            #expect(evaluation.matched == regex.matches(text), "\(pattern)")
            #expect(evaluation.steps < 10_000_000, "\(pattern): \(evaluation.steps) steps")
        }
    }

    @Test func withinTheLimitTheAnswerIsTheUnlimitedOne() throws {
        let cases: [(String, String, Bool)] = [
            ("(a+)+$", String(repeating: "a", count: 2000) + "b", false),
            ("(.*a){20}", String(repeating: "a", count: 2000), true),
            ("^(a|b|ab)*c$", String(repeating: "ab", count: 1000), false),
            ("x", "", false),
            ("^$", "", true),
        ]
        for (pattern, text, expected) in cases {
            let regex = try BoundedRegex(pattern: pattern)
            let evaluation = regex.evaluate(text, stepLimit: .max)
            #expect(evaluation.matched == expected, "\(pattern)")
            #expect(regex.matches(text) == expected, "\(pattern)")
            // Work grows with the subject: at least one step per character read.
            #expect(evaluation.steps >= 1)
        }
    }

    @Test func hostileLimitsNeverCrash() throws {
        let regex = try BoundedRegex(pattern: "(?:[a-z]{1,100}x){90}")
        // No steps at all: gives up as soon as it reads a character, but an empty subject is still answered.
        #expect(regex.evaluate("abc", stepLimit: 0).matched == nil)
        #expect(regex.evaluate("", stepLimit: 0).matched == false)
        #expect(regex.evaluate("abc", stepLimit: -5).matched == nil)
        #expect(regex.evaluate(String(repeating: "abx", count: 90), stepLimit: .max).matched == true)
    }
}
