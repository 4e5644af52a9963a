import BirdRealtime

extension BirdChannel {
    /// Records each `event` as `<event> <data as JSON-ish text>`.
    func record(_ events: [String], into recorder: Recorder) {
        for event in events {
            bind(event) { data in recorder.record("\(event) \(describe(data))") }
        }
    }
}
