import BmobWire
import BmobServerCodecs

/// libFuzzer entry point for ``BoundedRegex``.
///
/// Byte 0 picks the options: bits 0–3 add `i`, `m`, `s`, `x`; bit 4 also appends byte 1 as a scalar, which is
/// usually an unknown option (and byte 1 then belongs to the options, not the pattern). The rest is the pattern,
/// then a NUL byte, then the subject (cut to 1,024 bytes so that the largest programs stay far from the
/// timeout); both are decoded as UTF-8, invalid sequences becoming U+FFFD.
///
/// Any input must compile or throw, and never crash or hang. Preconditions check that:
/// - an error names a byte offset inside the pattern (or, for an option, inside the options) and a message;
/// - a compiled program stays within ``BoundedRegex/maximumInstructionCount``;
/// - matching is deterministic, and a compiled pattern also runs on the empty subject and on the pattern
///   itself;
/// - a step-limited evaluation gives the unlimited answer or gives up only past its limit, and the steps of
///   a full evaluation stay within 2 × program per scalar read.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let bytes = UnsafeBufferPointer(start: data, count: size)
    var options = ""
    for (bit, letter) in zip(0..<4, ["i", "m", "s", "x"]) where bytes[0] & (1 << bit) != 0 {
        options += letter
    }
    var rest = bytes[1...]
    if bytes[0] & 0x10 != 0, let extra = rest.first {
        options.unicodeScalars.append(Unicode.Scalar(extra))
        rest = rest.dropFirst()
    }
    let separator = rest.firstIndex(of: 0) ?? rest.endIndex
    let pattern = String(decoding: rest[..<separator], as: UTF8.self)
    let subjectBytes = separator < rest.endIndex ? rest[(separator + 1)...].prefix(1024) : rest[rest.endIndex...]
    let subject = String(decoding: subjectBytes, as: UTF8.self)

    let regex: BoundedRegex
    do {
        regex = try BoundedRegex(pattern: pattern, options: options)
    } catch {
        precondition(!error.message.isEmpty, "error without a message")
        let limit = max(pattern.utf8.count, options.utf8.count)
        precondition(error.offset >= 0 && error.offset <= limit, "error offset outside the input: \(error)")
        return 0
    }
    precondition(regex.instructionCount <= BoundedRegex.maximumInstructionCount, "program over the budget")
    let first = regex.matches(subject)
    precondition(regex.matches(subject) == first, "matching is not deterministic")
    let full = regex.evaluate(subject, stepLimit: .max)
    precondition(full.matched == first, "evaluate and matches disagree")
    let scalars = subject.unicodeScalars.count
    precondition(full.steps <= 2 * regex.instructionCount * (scalars + 1), "more steps than the bound")
    let limit = Int(bytes[0]) * 16
    let limited = regex.evaluate(subject, stepLimit: limit)
    if let answer = limited.matched {
        precondition(answer == first, "a step-limited answer differs")
    } else {
        precondition(limited.steps > limit, "gave up within its step limit")
    }
    _ = regex.matches("")
    _ = regex.matches(String(pattern.prefix(256)))
    return 0
}
