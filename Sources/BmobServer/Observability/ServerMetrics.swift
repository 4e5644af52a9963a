package import BmobHTTP
import BmobIO
import BmobStore

/// What `GET /metrics` shows, in the Prometheus text format: requests by route and status with their durations,
/// open connections by kind, each app's store (write queue, group commits, reads waiting for a reader), realtime
/// deliveries and drops, each app's journal lag on this node, SMS and mail sends.
///
/// Counters that requests touch live here as atomics; the rest is read from its owner when scraped.
package final class ServerMetrics: Sendable {
    /// Open WebSockets by door.
    package let webSockets: [WebSocketKind: MetricGauge] = Dictionary(
        uniqueKeysWithValues: WebSocketKind.allCases.map { ($0, MetricGauge()) })
    package let smsSent = MetricCounter()
    package let smsFailed = MetricCounter()
    package let mailSent = MetricCounter()
    package let mailFailed = MetricCounter()

    /// What is read when scraped, known once the server is assembled.
    package struct Sources: Sendable {
        package var http: HTTPServer
        package var apps: AppDirectory
        package var feeds: RealtimeFeeds
    }

    private let requestMetrics = LockedValue<RequestMetrics?>(nil)
    private let sources = LockedValue<Sources?>(nil)

    package init() {}

    /// The route table's counters, set by the responder when it is made.
    package var requests: RequestMetrics? {
        get { requestMetrics.withLock { $0 } }
        set { requestMetrics.withLock { $0 = newValue } }
    }

    /// Sets what is read at each scrape.
    package func attach(_ sources: Sources) {
        self.sources.withLock { $0 = sources }
    }

    /// The providers, wrapped so that their sends are counted.
    package func counting(_ providers: MessageProviders) -> MessageProviders {
        MessageProviders(
            sms: CountingSMSProvider(inner: providers.sms, sent: smsSent, failed: smsFailed),
            mail: CountingMailProvider(inner: providers.mail, sent: mailSent, failed: mailFailed))
    }

    /// The exposition text.
    package func render() -> String {
        var writer = PrometheusTextWriter()
        requests?.write(to: &writer)
        let sources = self.sources.withLock { $0 }

        writer.family("bmob_open_connections", type: "gauge", help: "Open client connections by kind (http counts every TCP connection, WebSockets included).")
        if let http = sources?.http {
            writer.sample("bmob_open_connections", ["kind": "http"], http.connectionCount)
        }
        for kind in WebSocketKind.allCases {
            writer.sample("bmob_open_connections", ["kind": kind.rawValue], webSockets[kind]!.value)
        }

        if let http = sources?.http {
            writer.family("bmob_realtime_messages_sent_total", type: "counter", help: "Messages queued on WebSockets (realtime deliveries of every door).")
            writer.sample("bmob_realtime_messages_sent_total", http.webSocketMessagesSent)
            writer.family("bmob_realtime_slow_client_drops_total", type: "counter", help: "WebSockets closed (1008) because their client read too slowly.")
            writer.sample("bmob_realtime_slow_client_drops_total", http.webSocketSlowClientCloses)
        }

        if let feeds = sources?.feeds {
            writer.family("bmob_journal_lag_entries", type: "gauge", help: "Committed journal entries this node's realtime feed has not yet read, by app.")
            for (app, lag) in feeds.journalLags {
                writer.sample("bmob_journal_lag_entries", ["app": app], Int(lag))
            }
        }

        if let apps = sources?.apps {
            writeStores(apps.openRuntimes, to: &writer)
        }

        writeMemory(to: &writer)

        writer.family("bmob_messages_sent_total", type: "counter", help: "Verification SMS and mails handed to their provider, by kind and result.")
        writer.sample("bmob_messages_sent_total", ["kind": "sms", "result": "sent"], smsSent.value)
        writer.sample("bmob_messages_sent_total", ["kind": "sms", "result": "failed"], smsFailed.value)
        writer.sample("bmob_messages_sent_total", ["kind": "mail", "result": "sent"], mailSent.value)
        writer.sample("bmob_messages_sent_total", ["kind": "mail", "result": "failed"], mailFailed.value)
        return writer.text
    }

    /// The resident set and what it is made of: SQLite's page caches (they fill up to their bound as databases
    /// grow) and the C allocator's in-use and freed-but-kept bytes.
    private func writeMemory(to writer: inout PrometheusTextWriter) {
        let memory = ProcessMemory.current()
        writer.family("process_resident_memory_bytes", type: "gauge", help: "Resident memory size in bytes.")
        writer.sample("process_resident_memory_bytes", memory.residentBytes)
        writer.family("bmob_sqlite_page_cache_bytes", type: "gauge", help: "Bytes held by the page caches of every SQLite connection (each up to its cache size).")
        writer.sample("bmob_sqlite_page_cache_bytes", SQLiteMemory.pageCacheBytes)
        writer.family("bmob_malloc_bytes", type: "gauge", help: "C heap bytes: in use in the arenas, in large blocks mapped on their own, freed but kept in the arenas.")
        writer.sample("bmob_malloc_bytes", ["state": "in_use"], memory.mallocInUseBytes)
        writer.sample("bmob_malloc_bytes", ["state": "mapped"], memory.mallocMappedBytes)
        writer.sample("bmob_malloc_bytes", ["state": "free_kept"], memory.mallocFreeKeptBytes)
    }

    private func writeStores(_ runtimes: [AppRuntime], to writer: inout PrometheusTextWriter) {
        let stores = runtimes.map { ($0.app.applicationId, $0.store.statistics, $0.store.readerStatistics) }
        writer.family("bmob_store_write_queue_depth", type: "gauge", help: "Writes queued or running and not yet committed or failed, by app.")
        for (app, writes, _) in stores {
            writer.sample(
                "bmob_store_write_queue_depth", ["app": app],
                max(0, writes.enqueuedWrites - writes.committedWrites - writes.failedWrites))
        }
        writer.family("bmob_store_writes_total", type: "counter", help: "Writes by app and outcome.")
        for (app, writes, _) in stores {
            writer.sample("bmob_store_writes_total", ["app": app, "result": "committed"], writes.committedWrites)
            writer.sample("bmob_store_writes_total", ["app": app, "result": "failed"], writes.failedWrites)
        }
        writer.family("bmob_store_group_commit_size", type: "histogram", help: "Writes per committed transaction (group commit), by app.")
        for (app, writes, _) in stores {
            var cumulative = 0
            for (index, bound) in StoreWriterStatistics.groupSizeBounds.enumerated() {
                cumulative += writes.groupSizes[index]
                writer.sample("bmob_store_group_commit_size_bucket", ["app": app, "le": String(bound)], cumulative)
            }
            cumulative += writes.groupSizes.last ?? 0
            writer.sample("bmob_store_group_commit_size_bucket", ["app": app, "le": "+Inf"], cumulative)
            writer.sample("bmob_store_group_commit_size_sum", ["app": app], writes.committedWrites)
            writer.sample("bmob_store_group_commit_size_count", ["app": app], cumulative)
        }
        writer.family("bmob_store_reads_total", type: "counter", help: "Reads handed to the reader pool, by app.")
        for (app, _, reads) in stores {
            writer.sample("bmob_store_reads_total", ["app": app], reads.submitted)
        }
        writer.family("bmob_store_reader_waits_total", type: "counter", help: "Reads that found every reader busy and queued, by app.")
        for (app, _, reads) in stores {
            writer.sample("bmob_store_reader_waits_total", ["app": app], reads.waited)
        }
    }
}
