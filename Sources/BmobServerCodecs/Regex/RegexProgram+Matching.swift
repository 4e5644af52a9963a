import BmobWire

extension RegexProgram {
    /// Whether the program matches anywhere in the scalars from `iterator`, giving up once the search has done
    /// more than `stepLimit` steps.
    ///
    /// The live threads advance together one scalar at a time (see ``RegexPikeVM``), so the work is
    /// O(program × subject) whatever the pattern, and the memory one scratch buffer of O(program). The search is
    /// unanchored as if the program began with a lazy `.*?`: a fresh thread starts at every position. It stops
    /// at the first thread that reaches ``RegexInstruction/match`` and, for a program anchored at the start, as
    /// soon as no thread is alive.
    ///
    /// A step is one instruction visited by a closure or one thread tested against a scalar; the limit is
    /// checked after each scalar, so at most one scalar's work (O(program)) runs past it.
    func evaluate(_ iterator: inout some IteratorProtocol<Unicode.Scalar>, stepLimit: Int) -> RegexEvaluation {
        let count = instructions.count
        var scratch = [Int](repeating: 0, count: RegexPikeVM.scratchCount(programCount: count))
        return instructions.withUnsafeBufferPointer { program in
            scratch.withUnsafeMutableBufferPointer { scratch in
                var machine = RegexPikeVM(program: program, scratch: scratch)
                let storage = RegexPikeVM.listStorage(in: scratch, programCount: count)
                var current = RegexThreadList(storage: storage.0)
                var next = RegexThreadList(storage: storage.1)
                var checks = 0
                let matched = search(
                    &iterator, machine: &machine, current: &current, next: &next, program: program,
                    checks: &checks, stepLimit: stepLimit)
                return RegexEvaluation(matched: matched, steps: machine.visits &+ checks)
            }
        }
    }

    /// The search loop of ``evaluate(_:stepLimit:)``: `nil` when the step limit ran out first.
    private func search(
        _ iterator: inout some IteratorProtocol<Unicode.Scalar>,
        machine: inout RegexPikeVM,
        current: inout RegexThreadList,
        next: inout RegexThreadList,
        program: UnsafeBufferPointer<RegexInstruction>,
        checks: inout Int,
        stepLimit: Int
    ) -> Bool? {
        // A window of the scalar before the position, the one after it, and the one after that (for `$`, `\Z`).
        let first = iterator.next()
        var following = first == nil ? nil : iterator.next()
        var position = RegexPosition(previous: nil, current: first, currentIsLast: first != nil && following == nil)
        if machine.addThread(0, to: &current, at: position) { return true }
        while let consumed = position.current {
            if machine.visits &+ checks > stepLimit { return nil }
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
            checks &+= current.count
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
