import BmobWire

/// The threads alive at one position of the subject: program counters of consuming instructions, each at most
/// once, in a region of the matcher's scratch buffer.
///
/// Capacity is the program length, which is enough because the epsilon closure marks every instruction it
/// visits per position (see ``RegexPikeVM``) and so appends each counter at most once between two `clear()`s.
struct RegexThreadList {
    /// Borrowed storage of program-length capacity; it outlives the list.
    private let storage: UnsafeMutableBufferPointer<Int>
    /// Threads in the list.
    private(set) var count = 0

    /// An empty list over `storage`.
    init(storage: UnsafeMutableBufferPointer<Int>) {
        self.storage = storage
    }

    /// Whether no thread is alive.
    var isEmpty: Bool { count == 0 }

    /// The program counter of the thread at `index`.
    subscript(index: Int) -> Int { storage[index] }

    /// Forgets every thread.
    mutating func clear() {
        count = 0
    }

    /// Adds a thread waiting at the consuming instruction `counter`.
    mutating func append(_ counter: Int) {
        storage[count] = counter
        count += 1
    }
}
