extension RegexProgram {
    /// Whether the program matches anywhere in the scalars from `iterator`.
    ///
    /// The live threads advance together one scalar at a time (see ``RegexPikeVM``), so the work is
    /// O(program × subject) whatever the pattern, and the memory one scratch buffer of O(program). The search is
    /// unanchored as if the program began with a lazy `.*?`: a fresh thread starts at every position. It stops
    /// at the first thread that reaches ``RegexInstruction/match`` and, for a program anchored at the start, as
    /// soon as no thread is alive.
    func matches(_ iterator: inout some IteratorProtocol<Unicode.Scalar>) -> Bool {
        let count = instructions.count
        var scratch = [Int](repeating: 0, count: RegexPikeVM.scratchCount(programCount: count))
        return instructions.withUnsafeBufferPointer { program in
            scratch.withUnsafeMutableBufferPointer { scratch in
                var machine = RegexPikeVM(program: program, scratch: scratch)
                let storage = RegexPikeVM.listStorage(in: scratch, programCount: count)
                var current = RegexThreadList(storage: storage.0)
                var next = RegexThreadList(storage: storage.1)
                return search(&iterator, machine: &machine, current: &current, next: &next, program: program)
            }
        }
    }

    /// The search loop of ``matches(_:)``.
    private func search(
        _ iterator: inout some IteratorProtocol<Unicode.Scalar>,
        machine: inout RegexPikeVM,
        current: inout RegexThreadList,
        next: inout RegexThreadList,
        program: UnsafeBufferPointer<RegexInstruction>
    ) -> Bool {
        // A window of the scalar before the position, the one after it, and the one after that (for `$`, `\Z`).
        let first = iterator.next()
        var following = first == nil ? nil : iterator.next()
        var position = RegexPosition(previous: nil, current: first, currentIsLast: first != nil && following == nil)
        if machine.addThread(0, to: &current, at: position) { return true }
        while let consumed = position.current {
            let afterFollowing = following == nil ? nil : iterator.next()
            position = RegexPosition(
                previous: consumed,
                current: following,
                currentIsLast: following != nil && afterFollowing == nil
            )
            following = afterFollowing
            let variants = usesCaseFolding ? RegexScalarSet.caseVariants(of: consumed) : (consumed, consumed)
            machine.advance()
            next.clear()
            for index in 0..<current.count {
                let counter = current[index]
                if consumes(program[counter], consumed, variants: variants),
                    machine.addThread(counter + 1, to: &next, at: position)
                {
                    return true
                }
            }
            if anchoredAtStart {
                if next.isEmpty { return false }
            } else if machine.addThread(0, to: &next, at: position) {
                return true
            }
            swap(&current, &next)
        }
        return false
    }

    /// Whether the consuming `instruction` accepts `scalar`, whose case forms are `variants`.
    private func consumes(
        _ instruction: RegexInstruction,
        _ scalar: Unicode.Scalar,
        variants: (lower: Unicode.Scalar, upper: Unicode.Scalar)
    ) -> Bool {
        switch instruction {
        case .scalar(let expected): return scalar == expected
        case .set(let index): return sets[index].contains(scalar, variants: variants)
        case .any: return true
        case .anyExceptNewline: return scalar != "\n"
        case .assertion, .split, .jump, .match: return false
        }
    }
}
