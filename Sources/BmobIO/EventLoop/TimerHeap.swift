/// Timers of one event loop, ordered by deadline: a binary min-heap of `(deadline, id)` plus the callbacks.
///
/// Cancelling removes the callback only; the heap entry is skipped when it surfaces. Callers that move a
/// deadline often (idle timeouts) should keep one timer and re-arm it when it fires, rather than cancel and
/// reschedule on every request, so the heap does not fill with dead entries.
struct TimerHeap {
    private struct Entry {
        var deadline: UInt64
        var id: UInt64
    }

    private var heap: [Entry] = []
    private var callbacks: [UInt64: () -> Void] = [:]
    private var nextID: UInt64 = 1

    var isEmpty: Bool { callbacks.isEmpty }
    var count: Int { callbacks.count }

    mutating func schedule(deadline: UInt64, _ callback: @escaping () -> Void) -> UInt64 {
        let id = nextID
        nextID += 1
        callbacks[id] = callback
        heap.append(Entry(deadline: deadline, id: id))
        siftUp(heap.count - 1)
        return id
    }

    mutating func cancel(_ id: UInt64) {
        callbacks[id] = nil
    }

    /// The earliest deadline of a live timer.
    mutating func nextDeadline() -> UInt64? {
        while let first = heap.first {
            if callbacks[first.id] != nil { return first.deadline }
            popFirst()
        }
        return nil
    }

    /// Removes and returns the callbacks of every timer due at `now`, earliest first.
    mutating func popExpired(now: UInt64) -> [() -> Void] {
        var due: [() -> Void] = []
        while let first = heap.first, first.deadline <= now {
            popFirst()
            if let callback = callbacks.removeValue(forKey: first.id) {
                due.append(callback)
            }
        }
        return due
    }

    mutating func removeAll() {
        heap.removeAll()
        callbacks.removeAll()
    }

    private mutating func popFirst() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        siftDown(0)
    }

    private mutating func siftUp(_ index: Int) {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ index: Int) {
        var parent = index
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].deadline < heap[smallest].deadline { smallest = left }
            if right < heap.count, heap[right].deadline < heap[smallest].deadline { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
