import CSystemShims

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A joinable, named pthread. Loops and pools use it rather than Foundation's `Thread` to control the name
/// and to join on shutdown.
package struct Thread: Sendable {
    private final class Box {
        let body: () -> Void
        let name: String
        init(_ body: @escaping () -> Void, name: String) {
            self.body = body
            self.name = name
        }
    }

    private let handle: pthread_t

    /// Starts a thread running `body`.
    package static func spawn(name: String, _ body: @escaping () -> Void) -> Thread {
        let box = Unmanaged.passRetained(Box(body, name: name)).toOpaque()
        #if canImport(Glibc)
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { argument in
            let box = Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue()
            CSystemShims_set_thread_name(box.name)
            box.body()
            return nil
        }, box)
        precondition(result == 0, "pthread_create failed: \(result)")
        return Thread(handle: thread)
        #else
        var thread: pthread_t?
        let result = pthread_create(&thread, nil, { argument in
            let box = Unmanaged<Box>.fromOpaque(argument).takeRetainedValue()
            CSystemShims_set_thread_name(box.name)
            box.body()
            return nil
        }, box)
        precondition(result == 0, "pthread_create failed: \(result)")
        return Thread(handle: thread!)
        #endif
    }

    /// Whether the calling thread is this thread.
    package var isCurrent: Bool {
        pthread_equal(handle, pthread_self()) != 0
    }

    /// Lets the thread release its resources when it ends, for a thread nobody joins.
    package func detach() {
        pthread_detach(handle)
    }

    /// Waits for the thread to finish. Joining the current thread is a no-op.
    package func join() {
        guard !isCurrent else { return }
        pthread_join(handle, nil)
    }
}
