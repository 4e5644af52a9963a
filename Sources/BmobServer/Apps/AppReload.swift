/// What ``AppDirectory/reload()`` changed, by Application ID.
package struct AppReload: Sendable {
    /// Apps new to the running server, now open and served.
    package var added: [String] = []
    /// Apps whose settings or keys changed; requests that start from now on use the new ones.
    package var changed: [String] = []
    /// Apps no longer in the registry, no longer served.
    package var removed: [String] = []
    /// New apps whose database could not be opened, with why; a later reload (or their first request) tries again.
    package var failed: [(applicationId: String, reason: String)] = []
    /// Apps the registry holds after the reload.
    package var total = 0

    package init() {}

    /// `3 apps (added a, changed b, removed c)`, for the server's log.
    package var summary: String {
        var parts: [String] = []
        if !added.isEmpty { parts.append("added \(added.joined(separator: ", "))") }
        if !changed.isEmpty { parts.append("changed \(changed.joined(separator: ", "))") }
        if !removed.isEmpty { parts.append("removed \(removed.joined(separator: ", "))") }
        if !failed.isEmpty { parts.append("could not open \(failed.map(\.applicationId).joined(separator: ", "))") }
        let count = "\(total) app\(total == 1 ? "" : "s")"
        return parts.isEmpty ? "\(count), unchanged" : "\(count) (\(parts.joined(separator: "; ")))"
    }

}
