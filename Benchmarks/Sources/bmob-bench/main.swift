// bmob-bench: the measuring tools that `make bench` runs beside `bmob serve`.
//
//   bmob-bench sqlite-inserts …   raw SQLite single-row inserts (the data API benchmark's reference)
//   bmob-bench fanout …           realtime fan-out over socket.io 0.9 WebSockets (the realtime benchmark)
let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "sqlite-inserts":
    SQLiteInserts.run(SQLiteInserts.parseOptions(arguments))
case "fanout":
    FanoutBenchmark.main(Array(arguments.dropFirst()))
default:
    fail("usage: bmob-bench sqlite-inserts … | bmob-bench fanout … (see Benchmarks/Sources/bmob-bench)")
}
