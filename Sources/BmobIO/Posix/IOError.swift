#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call: which call, and the `errno` it set.
package struct IOError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An `errno` value, matched with `catch let error as IOError where error.code == .connectionReset`.
    package struct Code: RawRepresentable, Hashable, Sendable {
        package var rawValue: Int32
        package init(rawValue: Int32) { self.rawValue = rawValue }

        package static let interrupted = Self(rawValue: EINTR)
        package static let wouldBlock = Self(rawValue: EAGAIN)
        package static let connectionReset = Self(rawValue: ECONNRESET)
        package static let brokenPipe = Self(rawValue: EPIPE)
        package static let addressInUse = Self(rawValue: EADDRINUSE)
        package static let tooManyFiles = Self(rawValue: EMFILE)
        package static let invalidArgument = Self(rawValue: EINVAL)
        package static let badFileDescriptor = Self(rawValue: EBADF)
        package static let notConnected = Self(rawValue: ENOTCONN)
        package static let connectionRefused = Self(rawValue: ECONNREFUSED)
        package static let noSuchFile = Self(rawValue: ENOENT)
        package static let notDirectory = Self(rawValue: ENOTDIR)
        package static let isDirectory = Self(rawValue: EISDIR)
    }

    /// Whether the path named nothing that could be opened as a file (`ENOENT`, `ENOTDIR`, `EISDIR`).
    package var isNotFound: Bool {
        code == .noSuchFile || code == .notDirectory || code == .isDirectory
    }

    package var code: Code
    /// The system call that failed.
    package var function: String

    package init(code: Code, function: String) {
        self.code = code
        self.function = function
    }

    package init(errno: Int32, function: String) {
        self.init(code: Code(rawValue: errno), function: function)
    }

    package var description: String {
        "\(function) failed: \(String(cString: strerror(code.rawValue))) (errno \(code.rawValue))"
    }
}
