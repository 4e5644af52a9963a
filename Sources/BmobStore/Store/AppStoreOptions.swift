/// What one app's store is opened with, whatever the engine: the app, where its files live, and its limits.
package struct AppStoreOptions: Sendable, Hashable {
    /// The app's Application ID (a schema name on an engine that keeps every app in one database).
    package var applicationId: String
    /// The app's own folder, which exists; an embedded engine keeps its database files there.
    package var folder: String
    /// The largest object a write may store, in bytes of its fields' JSON; a larger insert or update fails with
    /// ``StoreError/Code/tooLarge``.
    package var maximumDocumentBytes: Int

    /// Makes the options of one app.
    package init(applicationId: String, folder: String, maximumDocumentBytes: Int = .max) {
        self.applicationId = applicationId
        self.folder = folder
        self.maximumDocumentBytes = maximumDocumentBytes
    }
}
