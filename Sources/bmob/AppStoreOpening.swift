import BmobServer
import BmobStore
import Foundation

extension BmobCommand {
    /// Opens the store of one app of a data folder (or of a PostgreSQL database) for `export` and `import`.
    enum AppStoreOpening {
        static func open(data: String, applicationId: String, database: String?) async throws -> any Store {
            let storage: StorageConfiguration = database.map { .postgres(url: $0) } ?? .sqlite()
            let registry = AppRegistry(dataDirectory: data, storage: storage)
            if database == nil, !FileManager.default.fileExists(atPath: registry.registryPath) {
                throw UsageError("\(registry.registryPath) does not exist: --data must be the server's data folder")
            }
            guard try registry.load().contains(where: { $0.applicationId == applicationId }) else {
                throw UsageError("no app '\(applicationId)'; create it first with 'bmob apps create'")
            }
            let folder = registry.appDirectory(applicationId)
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            return try await StoreFactory(storage).open(AppStoreOptions(applicationId: applicationId, folder: folder))
        }
    }
}
