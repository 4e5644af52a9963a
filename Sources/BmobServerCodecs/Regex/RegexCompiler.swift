import BmobWire

/// Lays a ``RegexNode`` tree out as a Pike VM program: consuming instructions, assertions, and `split`/`jump`
/// for alternation and repetition. Counted repetition is expanded into copies, which the parser has already
/// counted against ``BoundedRegex/maximumInstructionCount``.
struct RegexCompiler {
    /// The program so far.
    private(set) var instructions: [RegexInstruction] = []

    /// Compiles a parsed pattern.
    ///
    /// - Parameters:
    ///   - node: The tree from ``RegexParser``.
    ///   - size: Its instruction count from the parser; the program is exactly that long plus the final match.
    ///   - sets: The parser's set table.
    static func compile(_ node: RegexNode, size: Int, sets: [RegexScalarSet]) -> RegexProgram {
        var compiler = RegexCompiler()
        compiler.instructions.reserveCapacity(size + 1)
        compiler.emit(node)
        compiler.instructions.append(.match)
        precondition(compiler.instructions.count == size + 1, "regex size accounting out of step with the compiler")
        return RegexProgram(
            instructions: compiler.instructions,
            sets: sets,
            anchoredAtStart: node.isAnchoredAtStart
        )
    }

    /// Appends the instructions for `node`.
    private mutating func emit(_ node: RegexNode) {
        switch node {
        case .empty:
            break
        case .scalar(let scalar):
            instructions.append(.scalar(scalar))
        case .set(let index):
            instructions.append(.set(index))
        case .any(let dotAll):
            instructions.append(dotAll ? .any : .anyExceptNewline)
        case .assertion(let assertion):
            instructions.append(.assertion(assertion))
        case .concatenation(let items):
            for item in items { emit(item) }
        case .alternation(let branches):
            // split L1, next; L1: branch; jump end; next: split L2, next'; … last branch; end:
            var jumps: [Int] = []
            for branch in branches.dropLast() {
                let split = placeholder()
                emit(branch)
                jumps.append(placeholder())
                instructions[split] = .split(split + 1, instructions.count)
            }
            emit(branches[branches.count - 1])
            for jump in jumps { instructions[jump] = .jump(instructions.count) }
        case .repetition(let inner, let min, let max?):
            // x{m,n}: m copies of x, then n-m copies of x? (split over the copy).
            for _ in 0..<min { emit(inner) }
            for _ in min..<max {
                let split = placeholder()
                emit(inner)
                instructions[split] = .split(split + 1, instructions.count)
            }
        case .repetition(let inner, 0, nil):
            // x*: loop: split body, end; body: x; jump loop; end:
            let split = placeholder()
            emit(inner)
            instructions.append(.jump(split))
            instructions[split] = .split(split + 1, instructions.count)
        case .repetition(let inner, let min, nil):
            // x{m,}: m-1 copies of x, then x+ (body: x; split body, end).
            for _ in 1..<min { emit(inner) }
            let body = instructions.count
            emit(inner)
            instructions.append(.split(body, instructions.count + 1))
        }
    }

    /// Appends an instruction to be patched once its targets are known, and returns its index.
    private mutating func placeholder() -> Int {
        instructions.append(.match)
        return instructions.count - 1
    }
}
