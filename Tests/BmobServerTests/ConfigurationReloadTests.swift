import BmobServer
import BmobStore
import BmobTesting
import Testing

/// What a SIGHUP reload applies of the server configuration, and what it leaves for a restart.
@Suite struct ConfigurationReloadTests {
    @Test func onlyTheLogLevelAppliesAndStartOnlySettingsAreNamed() {
        let old = ServerConfiguration()
        var new = old
        new.logLevel = .debug
        new.port = 9000
        new.dataDirectory = "/elsewhere"
        new.storage = .postgres(url: "postgres://localhost/bmob")
        let reload = ConfigurationReload(from: old, to: new)
        #expect(reload.logLevel == .debug)
        #expect(reload.needsRestart == ["port", "data", "database"])
        let running = ConfigurationReload.applied(reload, to: old)
        #expect(running.logLevel == .debug)
        #expect(running.port == old.port && running.dataDirectory == old.dataDirectory)

        var unnamed = old
        unnamed.webhookConcurrency = 3
        #expect(ConfigurationReload(from: old, to: unnamed).needsRestart == ["other settings"])
        #expect(ConfigurationReload(from: old, to: old).needsRestart.isEmpty)
        #expect(ConfigurationReload(from: old, to: old).logLevel == nil)
    }

    @Test func changingTheLevelOfEveryCopyReachesCopiesButSettingOneCopyDoesNot() {
        let recorder = RecordingLogHandler()
        let logger = Logger(label: "bmob", level: .info, handler: recorder)
        let copy = logger
        var separate = logger
        separate.level = .error
        copy.debug("dropped at info")
        logger.changeLevelOfEveryCopy(to: .debug)
        copy.debug("kept at debug")
        separate.warning("dropped: this copy set its own level")
        #expect(recorder.entries.map(\.message) == ["kept at debug"])
        #expect(separate.level == .error)
    }
}
