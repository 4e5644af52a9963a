import BmobServer
import Foundation
import Testing

@Suite struct ConfigurationTests {
    private func temporaryFile(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bmob-config-\(UUID().uuidString).json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func defaults() throws {
        let configuration = try ConfigurationLoader.load(flags: [:], environment: [:])
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 8080)
        #expect(configuration.dataDirectory == "./.bmob")
        #expect(configuration.logLevel == .info)
    }

    @Test func flagsBeatEnvironmentWhichBeatsTheFile() throws {
        let file = try temporaryFile(#"{"port": 7000, "host": "0.0.0.0", "data": "/from/file", "logLevel": "debug"}"#)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let environment = ["BMOB_CONFIG": file, "BMOB_PORT": "7001", "BMOB_DATA": "/from/env"]
        let configuration = try ConfigurationLoader.load(flags: ["--port": "7002"], environment: environment)
        #expect(configuration.port == 7002)
        #expect(configuration.dataDirectory == "/from/env")
        #expect(configuration.host == "0.0.0.0")
        #expect(configuration.logLevel == .debug)
    }

    @Test func configFlagBeatsTheEnvironmentVariable() throws {
        let fromFlag = try temporaryFile(#"{"port": 1234}"#)
        defer { try? FileManager.default.removeItem(atPath: fromFlag) }
        let configuration = try ConfigurationLoader.load(flags: ["--config": fromFlag], environment: ["BMOB_CONFIG": "/missing.json"])
        #expect(configuration.port == 1234)
    }

    @Test func publicURLFromEachSource() throws {
        #expect(try ConfigurationLoader.load(flags: [:], environment: [:]).publicURL == nil)
        let file = try temporaryFile(#"{"publicURL": "https://file.example.com/"}"#)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let fromFile = try ConfigurationLoader.load(flags: ["--config": file], environment: [:])
        #expect(fromFile.publicURL == "https://file.example.com")
        let fromEnvironment = try ConfigurationLoader.load(flags: ["--config": file], environment: ["BMOB_PUBLIC_URL": "http://env.example.com:8080"])
        #expect(fromEnvironment.publicURL == "http://env.example.com:8080")
        let fromFlag = try ConfigurationLoader.load(
            flags: ["--config": file, "--public-url": "https://flag.example.com"], environment: ["BMOB_PUBLIC_URL": "http://env.example.com"])
        #expect(fromFlag.publicURL == "https://flag.example.com")
    }

    @Test(arguments: [
        (["--port": "70000"], "port"),
        (["--port": "abc"], "port"),
        (["--log-level": "loud"], "logLevel"),
        (["--public-url": "ftp://x"], "publicURL"),
        (["--sqlite-synchronous": "off"], "sqliteSynchronous"),
        (["--header-timeout": "-1"], "headerTimeout"),
    ])
    func badValuesNameTheSetting(flags: [String: String], setting: String) {
        #expect {
            _ = try ConfigurationLoader.load(flags: flags, environment: [:])
        } throws: { error in
            (error as? ConfigurationError)?.message.hasPrefix(setting) == true
        }
    }

    @Test func unknownFileKeysAndBadFilesAreRejected() throws {
        let unknown = try temporaryFile(#"{"prot": 1}"#)
        let broken = try temporaryFile(#"{"port": "#)
        defer {
            try? FileManager.default.removeItem(atPath: unknown)
            try? FileManager.default.removeItem(atPath: broken)
        }
        #expect(throws: ConfigurationError.self) { try ConfigurationLoader.load(flags: ["--config": unknown], environment: [:]) }
        #expect(throws: ConfigurationError.self) { try ConfigurationLoader.load(flags: ["--config": broken], environment: [:]) }
        #expect(throws: ConfigurationError.self) { try ConfigurationLoader.load(flags: ["--config": "/does/not/exist"], environment: [:]) }
    }
}
