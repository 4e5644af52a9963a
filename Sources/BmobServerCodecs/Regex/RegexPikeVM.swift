import BmobWire

/// The machinery of one search: a Pike VM over a program, with its visit marks and closure stack in a scratch
/// buffer borrowed for the duration of ``RegexProgram/matches(_:)``.
///
/// Threads carry no captures, so a thread is only a program counter. At each position the epsilon closure
/// (splits, jumps and assertions) is followed with an explicit stack, and every instruction is visited at most
/// once per position: a mark holds the generation (position number) in which it was last visited, so moving to
/// the next position is O(1). Hence per position O(program) work, and at most one thread per instruction.
struct RegexPikeVM {
    /// The instructions, ending with ``RegexInstruction/match``.
    private let program: UnsafeBufferPointer<RegexInstruction>
    /// Per instruction, the generation in which it was last visited.
    private let marks: UnsafeMutableBufferPointer<Int>
    /// Pending closure targets; each newly visited instruction pushes at most two, so 2 × program + 1 suffices.
    private let stack: UnsafeMutableBufferPointer<Int>
    /// The position being closed over, counted from 1 so that fresh marks (0) read as unvisited.
    private(set) var generation = 1
    /// Instructions visited by closures so far, over all positions: with the consuming checks, the work done,
    /// which the search holds to its step limit.
    private(set) var visits = 0

    /// Borrows `scratch`, at least ``scratchCount(programCount:)`` long, holding zeroes in its first
    /// `program.count` elements.
    init(program: UnsafeBufferPointer<RegexInstruction>, scratch: UnsafeMutableBufferPointer<Int>) {
        let count = program.count
        precondition(scratch.count >= Self.scratchCount(programCount: count), "regex scratch buffer too small")
        self.program = program
        marks = UnsafeMutableBufferPointer(rebasing: scratch[0..<count])
        stack = UnsafeMutableBufferPointer(rebasing: scratch[count..<(3 * count + 1)])
    }

    /// Scratch elements needed by a machine and its two thread lists for a program of `count` instructions.
    static func scratchCount(programCount count: Int) -> Int {
        5 * count + 1
    }

    /// The two thread lists' storage within `scratch`, after the machine's own.
    static func listStorage(
        in scratch: UnsafeMutableBufferPointer<Int>,
        programCount count: Int
    ) -> (UnsafeMutableBufferPointer<Int>, UnsafeMutableBufferPointer<Int>) {
        (
            UnsafeMutableBufferPointer(rebasing: scratch[(3 * count + 1)..<(4 * count + 1)]),
            UnsafeMutableBufferPointer(rebasing: scratch[(4 * count + 1)..<(5 * count + 1)])
        )
    }

    /// Moves on to the next position: every instruction becomes unvisited.
    mutating func advance() {
        generation += 1
    }

    /// Follows the epsilon closure from `start` at `position`, adding the consuming instructions reached to
    /// `list`, and skipping instructions already visited at this position.
    ///
    /// - Returns: `true` if ``RegexInstruction/match`` is reached.
    @inline(__always)
    mutating func addThread(_ start: Int, to list: inout RegexThreadList, at position: RegexPosition) -> Bool {
        var depth = 0
        stack[0] = start
        depth = 1
        while depth > 0 {
            depth -= 1
            let counter = stack[depth]
            guard marks[counter] != generation else { continue }
            marks[counter] = generation
            visits &+= 1
            switch program[counter] {
            case .match:
                return true
            case .jump(let target):
                stack[depth] = target
                depth += 1
            case .split(let first, let second):
                stack[depth] = second
                stack[depth + 1] = first
                depth += 2
            case .assertion(let assertion):
                if assertion.holds(at: position) {
                    stack[depth] = counter + 1
                    depth += 1
                }
            case .scalar, .set, .any, .anyExceptNewline:
                list.append(counter)
            }
        }
        return false
    }
}
