import BmobCrypto
package import BmobStore
package import BmobWire
package import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The apps of a data folder, kept in `<data>/apps.json`; each app's database lives in `<data>/apps/<id>/`.
///
/// Writes replace the file atomically (write, then rename), so a crash never leaves half a registry, and
/// `bmob apps create` can run while a server is up: the server re-reads the file when it sees an unknown id.
package struct AppRegistry: Sendable {
    package let dataDirectory: String
    /// Where the list of apps lives when the apps' data is in PostgreSQL (``PostgresAppTable``), so that every
    /// server node reads the same apps; `nil` keeps them in `apps.json`.
    package let appTable: PostgresAppTable?

    package init(dataDirectory: String, storage: StorageConfiguration = .sqlite()) {
        self.dataDirectory = dataDirectory
        if case .postgres(let url) = storage {
            appTable = PostgresAppTable(url: url)
        } else {
            appTable = nil
        }
    }

    package var registryPath: String { dataDirectory + "/apps.json" }

    /// The folder holding one app's files.
    package func appDirectory(_ applicationId: String) -> String {
        dataDirectory + "/apps/" + applicationId
    }

    /// When `apps.json` last changed, or `nil` if it does not exist.
    /// On PostgreSQL, when the database's app table is empty, copies the apps of the data folder's `apps.json`
    /// into it (the folder a server ran on SQLite, or one `bmob apps create` filled); nothing otherwise.
    ///
    /// - Throws: ``ConfigurationError`` when the file or the database cannot be read.
    package func importFileIfEmpty() throws {
        guard let appTable else { return }
        guard try load().isEmpty else { return }
        for app in try AppRegistry(dataDirectory: dataDirectory).load() {
            do {
                _ = try appTable.insert(
                    applicationId: app.applicationId, document: app.json.jsonString, createdAt: app.createdAt)
            } catch {
                throw ConfigurationError("cannot add the app to the database (\(error))")
            }
        }
    }

    /// A value that changes when an app is added or changed: the file's modification date, or the table's version.
    package func changeMarker() -> String? {
        if let appTable { return try? appTable.version() }
        return modificationDate().map { "\($0.timeIntervalSince1970)" }
    }

    package func modificationDate() -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: registryPath))?[.modificationDate] as? Date
    }

    /// A secret every node of the deployment shares, for values one node signs and another checks (socket.io
    /// handshake ids, upload credentials): on PostgreSQL it is made once and kept in the database; otherwise
    /// in `secrets.json` in the data folder (readable by its owner only), so that what was signed before a
    /// restart still checks after it.
    ///
    /// - Throws: ``ConfigurationError`` when the database or the file cannot be read or written.
    package func sharedSecret(_ name: String) throws -> [UInt8] {
        let candidate = SecureRandom.hex(byteCount: 32)
        guard let appTable else { return Array(try localSecret(name, candidate: candidate).utf8) }
        do {
            return Array(try appTable.sharedSecret(name, candidate: candidate).utf8)
        } catch {
            throw ConfigurationError("cannot read the shared secret \(name) from the database (\(error))")
        }
    }

    /// The secret `name` from `secrets.json`, made from `candidate` and saved when it is not there yet.
    private func localSecret(_ name: String, candidate: String) throws -> String {
        let path = dataDirectory + "/secrets.json"
        var secrets: [String: JSONValue] = [:]
        if let bytes = FileManager.default.contents(atPath: path) {
            guard case .object(let stored)? = try? JSONParser.parse(Array(bytes)) else {
                throw ConfigurationError("\(path) is not a JSON object; remove it to make new secrets")
            }
            secrets = stored
        }
        if case .string(let secret)? = secrets[name] { return secret }
        secrets[name] = .string(candidate)
        do {
            try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
            let temporary = path + ".tmp"
            guard FileManager.default.createFile(
                atPath: temporary, contents: Data(JSONValue.object(secrets).jsonBytes), attributes: [.posixPermissions: 0o600])
            else { throw ConfigurationError("cannot write \(temporary)") }
            guard rename(temporary, path) == 0 else { throw ConfigurationError("cannot save \(path)") }
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw ConfigurationError("cannot save \(path) (\(error))")
        }
        return candidate
    }

    /// Every app, in creation order. A missing file means no apps.
    package func load() throws -> [App] {
        if let appTable {
            let documents: [String]
            do {
                documents = try appTable.load()
            } catch {
                throw ConfigurationError("cannot read the apps from the database (\(error))")
            }
            return try Self.apps(documents)
        }
        guard let data = FileManager.default.contents(atPath: registryPath) else { return [] }
        let document: JSONValue
        do {
            document = try JSONParser.parse(Array(data))
        } catch {
            throw ConfigurationError("\(registryPath) is not valid JSON (\(error))")
        }
        guard let list = document["apps"]?.arrayValue else {
            throw ConfigurationError("\(registryPath) must hold {\"apps\": [...]}")
        }
        var apps: [App] = []
        for item in list {
            apps.append(try App(json: item))
        }
        return apps
    }

    /// Every app with the registry's ``changeMarker()``, read so that the marker never names a newer registry than
    /// the apps read with it (else a change landing between the two reads would be taken as seen, and never
    /// applied): on PostgreSQL both in one snapshot, from `apps.json` the marker first.
    ///
    /// - Throws: ``ConfigurationError`` as ``load()`` does.
    package func loadWithChangeMarker() throws -> (apps: [App], marker: String?) {
        guard let appTable else {
            let marker = changeMarker()
            return (try load(), marker)
        }
        let snapshot: (documents: [String], version: String)
        do {
            snapshot = try appTable.snapshot()
        } catch {
            throw ConfigurationError("cannot read the apps from the database (\(error))")
        }
        return (try Self.apps(snapshot.documents), snapshot.version)
    }

    private static func apps(_ documents: [String]) throws(ConfigurationError) -> [App] {
        try documents.map { document throws(ConfigurationError) in
            guard let json = try? JSONParser.parse(Array(document.utf8)) else {
                throw ConfigurationError("the database holds an app that is not valid JSON")
            }
            return try App(json: json)
        }
    }

    /// Creates an app, generating the keys not given, and saves it.
    ///
    /// - Throws: ``ConfigurationError`` for an invalid or duplicate id or key, or an unwritable folder.
    package func create(
        name: String,
        applicationId: String? = nil,
        restKey: String? = nil,
        masterKey: String? = nil,
        secretKey: String? = nil,
        authProviders: [String: JSONValue] = [:],
        security: AppSecurity = AppSecurity(),
        webhooks: AppWebhooks = AppWebhooks(),
        channels: AppChannels = .make(),
        now: Int64
    ) throws -> App {
        guard !name.isEmpty, name.count <= 128 else { throw ConfigurationError("name: expected 1 to 128 characters") }
        try channels.validate()
        var app = App(
            name: name,
            applicationId: applicationId ?? AppKeys.makeKey(),
            restKey: restKey ?? AppKeys.makeKey(),
            masterKey: masterKey ?? AppKeys.makeKey(),
            secretKey: secretKey ?? AppKeys.makeSecretKey(),
            createdAt: now,
            authProviders: authProviders,
            security: security
        )
        app.webhooks = webhooks
        app.channels = channels
        try AppKeys.validateKey(app.applicationId, name: "app-id")
        guard app.applicationId.utf8.allSatisfy({ $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: ".") }) else {
            throw ConfigurationError("app-id: must not contain '/' or '.'")
        }
        try AppKeys.validateKey(app.restKey, name: "rest-key")
        try AppKeys.validateKey(app.masterKey, name: "master-key")
        try AppKeys.validateSecretKey(app.secretKey)
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        if let appTable {
            try Self.checkChannelsUnique(channels, among: try load())
            let added: Bool
            do {
                added = try appTable.insert(
                    applicationId: app.applicationId, document: app.json.jsonString, createdAt: app.createdAt)
            } catch {
                throw ConfigurationError("cannot add the app to the database (\(error))")
            }
            guard added else { throw ConfigurationError("app-id: an app with id '\(app.applicationId)' already exists") }
            try FileManager.default.createDirectory(atPath: appDirectory(app.applicationId), withIntermediateDirectories: true)
            return app
        }
        return try withExclusiveLock {
            var apps = try load()
            if apps.contains(where: { $0.applicationId == app.applicationId }) {
                throw ConfigurationError("app-id: an app with id '\(app.applicationId)' already exists")
            }
            try Self.checkChannelsUnique(channels, among: apps)
            apps.append(app)
            try save(apps)
            try FileManager.default.createDirectory(atPath: appDirectory(app.applicationId), withIntermediateDirectories: true)
            return app
        }
    }

    /// Channel clients and server libraries name an app by its channel key and app id: no two apps may share one.
    package static func checkChannelsUnique(_ channels: AppChannels, among apps: [App], except applicationId: String? = nil)
        throws(ConfigurationError)
    {
        for other in apps where other.applicationId != applicationId {
            guard let taken = other.channels else { continue }
            if taken.key == channels.key { throw ConfigurationError("channels-key: another app has this channel key") }
            if taken.appId == channels.appId { throw ConfigurationError("channels-app-id: another app has this channel app id") }
        }
    }

    /// Changes the app `applicationId` with `change` and saves it (its keys and id cannot change). A running
    /// server reads an app's settings when it starts.
    ///
    /// - Throws: ``ConfigurationError`` for an unknown app, or what `change` throws.
    package func update(applicationId: String, _ change: (inout App) throws -> Void) throws -> App {
        func changed(_ app: App) throws -> App {
            var copy = app
            try change(&copy)
            copy.applicationId = app.applicationId
            copy.restKey = app.restKey
            copy.masterKey = app.masterKey
            copy.secretKey = app.secretKey
            return copy
        }
        if let appTable {
            guard let app = try load().first(where: { $0.applicationId == applicationId }) else {
                throw ConfigurationError("no app with id '\(applicationId)'")
            }
            let updated = try changed(app)
            let found: Bool
            do {
                found = try appTable.update(applicationId: applicationId, document: updated.json.jsonString)
            } catch {
                throw ConfigurationError("cannot update the app in the database (\(error))")
            }
            guard found else { throw ConfigurationError("no app with id '\(applicationId)'") }
            return updated
        }
        return try withExclusiveLock {
            var apps = try load()
            guard let index = apps.firstIndex(where: { $0.applicationId == applicationId }) else {
                throw ConfigurationError("no app with id '\(applicationId)'")
            }
            apps[index] = try changed(apps[index])
            try save(apps)
            return apps[index]
        }
    }

    /// Serialises read-modify-write of `apps.json` across processes (two `bmob apps create` at once).
    private func withExclusiveLock<T>(_ body: () throws -> T) throws -> T {
        let fd = open(dataDirectory + "/apps.lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ConfigurationError("cannot open '\(dataDirectory)/apps.lock'") }
        defer { close(fd) }
        guard flock(fd, LOCK_EX) == 0 else { throw ConfigurationError("cannot lock '\(dataDirectory)/apps.lock'") }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    private func save(_ apps: [App]) throws {
        let fileManager = FileManager.default
        do {
            try fileManager.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        } catch {
            throw ConfigurationError("cannot create data folder '\(dataDirectory)': \(error.localizedDescription)")
        }
        let document: JSONValue = ["apps": .array(apps.map(\.json))]
        let temporary = registryPath + ".tmp-\(ProcessInfo.processInfo.processIdentifier)"
        guard fileManager.createFile(atPath: temporary, contents: Data(document.jsonBytes), attributes: [.posixPermissions: 0o600]) else {
            throw ConfigurationError("cannot write '\(temporary)'")
        }
        if rename(temporary, registryPath) != 0 {
            try? fileManager.removeItem(atPath: temporary)
            throw ConfigurationError("cannot replace '\(registryPath)'")
        }
    }
}
