import BirdRealtime

extension BirdRealtime {
    /// Records state changes, errors and signin errors as lines: `state a→b`, `error <code>: <message>`,
    /// `signin-error …`.
    func record(into recorder: Recorder) {
        onConnectionStateChange { previous, current in recorder.record("state \(previous)→\(current)") }
        onError { error in recorder.record("error \(error.code.map(String.init) ?? "nil"): \(error.message)") }
        onSigninError { error in recorder.record("signin-error \(error.message)") }
    }
}
