// bmob-bench: the measuring tools that `make bench` runs beside `bmob serve`.
//
//   bmob-bench sqlite-inserts …   raw SQLite single-row inserts (the data API benchmark's reference)
//   bmob-bench sqlite-reads …     raw SQLite primary-key and indexed range reads, with or without rendering (the
//                                 read path's references)
//   bmob-bench fanout …           realtime fan-out over socket.io 0.9 WebSockets (the realtime benchmark)
//   bmob-bench channel-fanout …   the same over Pusher-protocol channels (the channels benchmark)
//   bmob-bench fanout-floor-send … / fanout-floor-receive …
//                                 the kernel's floor under that fan-out: bare writes to loopback connections
//   bmob-bench files-upload …     one large file through the multipart upload path (the files benchmark)
//   bmob-bench live-queries …     live-query update latency and mutations/s on the sync door (the live-query
//                                 benchmark; its socket.io reference is `fanout --groups`)
let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "sqlite-inserts":
    SQLiteInserts.run(SQLiteInserts.parseOptions(arguments))
case "sqlite-reads":
    SQLiteReads.run(SQLiteReads.parseOptions(arguments))
case "fanout":
    FanoutBenchmark.main(Array(arguments.dropFirst()), channels: false)
case "channel-fanout":
    FanoutBenchmark.main(Array(arguments.dropFirst()), channels: true)
case "fanout-floor-send":
    FanoutFloor.send(Array(arguments.dropFirst()))
case "fanout-floor-receive":
    FanoutFloor.receive(Array(arguments.dropFirst()))
case "files-upload":
    FilesUpload.main(Array(arguments.dropFirst()))
case "live-queries":
    LiveQueryBenchmark.main(Array(arguments.dropFirst()))
default:
    fail("usage: bmob-bench sqlite-inserts … | bmob-bench sqlite-reads … | bmob-bench fanout … | bmob-bench channel-fanout … | bmob-bench fanout-floor-send … | bmob-bench fanout-floor-receive … | bmob-bench files-upload … | bmob-bench live-queries … (see Benchmarks/Sources/bmob-bench)")
}
