/// The SQL of the cluster's channel state, in the deployment's `"bmob-registry"` schema beside the apps:
///
/// - `channel_nodes (node, beat)`: each live node and its last heartbeat (the database's clock, so nodes' clocks
///   need not agree);
/// - `channel_members (app, channel, node, socket, user_id, user_info, joined)`: every connection on every
///   channel, on every node (`user_id` on presence channels), so counts, members and occupancy are the
///   cluster's;
/// - `channel_log (seq, node, app, at, body)`: messages for every node's sockets, tailed by `seq`, pruned by age.
///
/// Every write that changes state or appends to the log first takes one advisory lock (``lockKey``) for its
/// transaction, and PostgreSQL makes a commit visible before it releases the lock: the log's `seq`s are drawn
/// and become visible in the same order (a reader past `seq = n` never later finds a smaller one), and two nodes
/// never both decide that the same user arrived, left or that a channel emptied.
enum PostgresChannelTables {
    /// The advisory lock of every channel-state write, hashed as the apps' keys are.
    static let lockKey = PostgresSchemaName.lockKey(of: "bmob-registry channels")
    /// The notification channel that wakes the nodes' log readers.
    static let notifyChannel = "bmob_channels"

    static let nodes = #""bmob-registry"."channel_nodes""#
    static let members = #""bmob-registry"."channel_members""#
    static let log = #""bmob-registry"."channel_log""#

    /// Makes the tables on first use (under an advisory lock, since nodes may start together).
    static func create(_ connection: PostgresConnection) throws {
        try connection.execute(
            """
            BEGIN; SELECT pg_advisory_xact_lock(\(PostgresSchemaName.lockKey(of: "bmob-registry")));
            CREATE SCHEMA IF NOT EXISTS "bmob-registry";
            CREATE TABLE IF NOT EXISTS \(nodes) (node text COLLATE "C" PRIMARY KEY, beat timestamptz NOT NULL);
            CREATE TABLE IF NOT EXISTS \(members) (
                app text COLLATE "C" NOT NULL, channel text COLLATE "C" NOT NULL, node text COLLATE "C" NOT NULL,
                socket text COLLATE "C" NOT NULL, user_id text COLLATE "C", user_info text,
                joined timestamptz NOT NULL DEFAULT clock_timestamp(),
                PRIMARY KEY (app, channel, node, socket));
            CREATE INDEX IF NOT EXISTS channel_members_node ON \(members) (node);
            CREATE TABLE IF NOT EXISTS \(log) (
                seq bigserial PRIMARY KEY, node text COLLATE "C" NOT NULL, app text COLLATE "C" NOT NULL,
                at timestamptz NOT NULL DEFAULT clock_timestamp(), body text NOT NULL);
            COMMIT
            """)
    }

    /// Runs `body` in a transaction that holds the channel-state lock; rolls back when it throws.
    static func locked<T>(_ connection: PostgresConnection, _ body: () throws -> T) throws -> T {
        try connection.execute("BEGIN; SELECT pg_advisory_xact_lock(\(lockKey))")
        do {
            let result = try body()
            try connection.execute("COMMIT")
            return result
        } catch {
            if !connection.isBroken { try? connection.execute("ROLLBACK") }
            throw error
        }
    }

    /// Appends messages (inside ``locked(_:_:)``) and wakes the readers when the transaction commits.
    static func append(
        _ connection: PostgresConnection, node: String, _ messages: [(applicationId: String, body: String)]
    ) throws {
        guard !messages.isEmpty else { return }
        for message in messages {
            try connection.run(
                "INSERT INTO \(log) (node, app, body) VALUES (?, ?, ?)",
                [.text(node), .text(message.applicationId), .text(message.body)])
        }
        try connection.execute("SELECT pg_notify('\(notifyChannel)', '')")
    }

    /// Records a connection on a channel and says what changed; a presence join beyond `maximumMembers` users
    /// records nothing (``ChannelClusterJoin/full``).
    static func join(
        _ connection: PostgresConnection, node: String, _ subscription: ChannelClusterSubscription, maximumMembers: Int,
        memberAdded: (ChannelClusterMember) -> String, subscriptionCount: (Int) -> String
    ) throws -> ChannelClusterJoin {
        try locked(connection) {
            let key: [SQLValue] = [.text(subscription.applicationId), .text(subscription.channel)]
            let occupied =
                try connection.firstRow(
                    "SELECT EXISTS (SELECT 1 FROM \(members) WHERE app = ? AND channel = ?)", key
                ) { $0.bool(0) } != true
            var current: [ChannelClusterMember] = []
            var newMember = false
            if let member = subscription.member {
                current = try presence(connection, subscription.applicationId, subscription.channel)
                newMember = !current.contains { $0.userId == member.userId }
                if newMember {
                    guard current.count < maximumMembers else {
                        return ChannelClusterJoin(occupied: false, newMember: false, members: current, full: true)
                    }
                    current.append(member)
                }
            }
            try connection.run(
                """
                INSERT INTO \(members) (app, channel, node, socket, user_id, user_info) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (app, channel, node, socket) DO NOTHING
                """,
                key + [
                    .text(node), .text(subscription.socket), subscription.member.map { .text($0.userId) } ?? .null,
                    subscription.member?.userInfo.map { .text($0) } ?? .null,
                ])
            if newMember, let member = subscription.member {
                try append(connection, node: node, [(subscription.applicationId, memberAdded(member))])
            }
            var joined = ChannelClusterJoin(occupied: occupied, newMember: newMember, members: current, full: false)
            if subscription.countsSubscriptions {
                joined.subscriptionCount = try appendCount(connection, node: node, subscription, subscriptionCount)
            }
            joined.logPosition = try head(connection)
            return joined
        }
    }

    /// Removes a connection from a channel and says what changed (nothing when it was not recorded).
    static func leave(
        _ connection: PostgresConnection, node: String, _ subscription: ChannelClusterSubscription,
        memberRemoved: (ChannelClusterLeave) -> String, subscriptionCount: (Int) -> String
    ) throws -> ChannelClusterLeave {
        try locked(connection) {
            let key: [SQLValue] = [.text(subscription.applicationId), .text(subscription.channel)]
            var outcome = ChannelClusterLeave(
                applicationId: subscription.applicationId, channel: subscription.channel, vacated: false,
                goneUserId: nil)
            guard
                let userId = try connection.firstRow(
                    "DELETE FROM \(members) WHERE app = ? AND channel = ? AND node = ? AND socket = ? RETURNING user_id",
                    key + [.text(node), .text(subscription.socket)], { $0.text(0) })
            else { return outcome }
            if let userId {
                let stays =
                    try connection.firstRow(
                        "SELECT EXISTS (SELECT 1 FROM \(members) WHERE app = ? AND channel = ? AND user_id = ?)",
                        key + [.text(userId)]
                    ) { $0.bool(0) } == true
                if !stays { outcome.goneUserId = userId }
            }
            outcome.vacated =
                try connection.firstRow(
                    "SELECT EXISTS (SELECT 1 FROM \(members) WHERE app = ? AND channel = ?)", key
                ) { $0.bool(0) } != true
            if outcome.goneUserId != nil {
                try append(connection, node: node, [(subscription.applicationId, memberRemoved(outcome))])
            }
            if subscription.countsSubscriptions, !outcome.vacated {
                outcome.subscriptionCount = try appendCount(connection, node: node, subscription, subscriptionCount)
            }
            return outcome
        }
    }

    /// Counts the connections on the subscription's channel on every node and logs the count for the other nodes
    /// (inside ``locked(_:_:)``, so counts are logged in the order of the changes).
    private static func appendCount(
        _ connection: PostgresConnection, node: String, _ subscription: ChannelClusterSubscription,
        _ message: (Int) -> String
    ) throws -> Int {
        let count = Int(
            try connection.firstRow(
                "SELECT count(*) FROM \(members) WHERE app = ? AND channel = ?",
                [.text(subscription.applicationId), .text(subscription.channel)]
            ) { $0.int64(0) } ?? 0)
        try append(connection, node: node, [(subscription.applicationId, message(count))])
        return count
    }

    /// Removes every connection of `gone` (a dead node, or this one stopping) and says what that changed,
    /// appending `member_removed` for each user who left; `staleAfter` (seconds) removes the node only while its
    /// heartbeat is still that old, so that of two survivors only the first does it.
    static func reap(
        _ connection: PostgresConnection, node: String, gone: String, staleAfter: Double?,
        memberRemoved: (ChannelClusterLeave) -> String
    ) throws -> [ChannelClusterLeave] {
        try locked(connection) {
            if let staleAfter {
                let removed = try connection.run(
                    "DELETE FROM \(nodes) WHERE node = ? AND beat < now() - make_interval(secs => ?)",
                    [.text(gone), .real(staleAfter)])
                // Not stale: it beat meanwhile (or another survivor removed it, and then its rows too). A node
                // without a heartbeat row at all is one whose rows outlived its removal (a join that was under way
                // as it was removed, then no beat): those go too.
                if removed == 0 {
                    let beating = try connection.firstRow(
                        "SELECT EXISTS (SELECT 1 FROM \(nodes) WHERE node = ?)", [.text(gone)]
                    ) {
                        $0.bool(0)
                    }
                    guard beating == false else { return [] }
                }
            } else {
                try connection.run("DELETE FROM \(nodes) WHERE node = ?", [.text(gone)])
            }
            // The outer query sees the table as it was before the CTE's delete, so "still there" means rows of
            // other nodes.
            let leaves = try connection.rows(
                """
                WITH gone AS (DELETE FROM \(members) WHERE node = ? RETURNING app, channel, user_id)
                SELECT g.app, g.channel, g.user_id,
                    NOT EXISTS (SELECT 1 FROM \(members) m WHERE m.app = g.app AND m.channel = g.channel AND m.node <> ?),
                    g.user_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM \(members) m WHERE m.app = g.app
                        AND m.channel = g.channel AND m.user_id = g.user_id AND m.node <> ?)
                FROM (SELECT DISTINCT app, channel, user_id FROM gone) g
                ORDER BY g.app, g.channel, g.user_id
                """, [.text(gone), .text(gone), .text(gone)]
            ) { row in
                (
                    app: row.text(0) ?? "", channel: row.text(1) ?? "", userId: row.text(2), vacated: row.bool(3),
                    userGone: row.bool(4)
                )
            }
            var outcomes: [ChannelClusterLeave] = []
            var vacated = Set<[String]>()
            // A dead node's departures are logged under a name no node has ("<node>/reaper"), so that this node's
            // reader hands them to this node's sockets too, in log order: announced directly, a member_removed could
            // overtake a later member_added of the same user that came through the log (the node declared dead was
            // alive and records its members again).
            let author = gone == node ? node : node + "/reaper"
            for leave in leaves {
                if leave.userGone, let userId = leave.userId {
                    var outcome = ChannelClusterLeave(
                        applicationId: leave.app, channel: leave.channel, vacated: false, goneUserId: userId)
                    outcome.deliveredThroughLog = author != node
                    outcomes.append(outcome)
                }
                if leave.vacated { vacated.insert([leave.app, leave.channel]) }
            }
            for channel in vacated.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                outcomes.append(.init(applicationId: channel[0], channel: channel[1], vacated: true, goneUserId: nil))
            }
            try append(
                connection, node: author,
                outcomes.filter { $0.goneUserId != nil }.map { ($0.applicationId, memberRemoved($0)) })
            return outcomes
        }
    }

    /// A presence channel's members across the cluster, by user id.
    static func presence(_ connection: PostgresConnection, _ applicationId: String, _ channel: String) throws
        -> [ChannelClusterMember]
    {
        try connection.rows(
            """
            SELECT DISTINCT ON (user_id) user_id, user_info FROM \(members)
            WHERE app = ? AND channel = ? AND user_id IS NOT NULL ORDER BY user_id, joined
            """, [.text(applicationId), .text(channel)]
        ) { ChannelClusterMember(userId: $0.text(0) ?? "", userInfo: $0.text(1)) }
    }

    /// A channel's connections across the cluster.
    static func subscriptionCount(_ connection: PostgresConnection, _ applicationId: String, _ channel: String) throws
        -> Int
    {
        Int(
            try connection.firstRow(
                "SELECT count(*) FROM \(members) WHERE app = ? AND channel = ?", [.text(applicationId), .text(channel)]
            ) { $0.int64(0) } ?? 0)
    }

    /// An app's occupied channels across the cluster.
    static func occupied(_ connection: PostgresConnection, _ applicationId: String) throws -> [ChannelClusterChannel] {
        try connection.rows(
            """
            SELECT channel, count(*), count(DISTINCT user_id) FROM \(members) WHERE app = ?
            GROUP BY channel ORDER BY channel
            """, [.text(applicationId)]
        ) {
            ChannelClusterChannel(
                name: $0.text(0) ?? "", subscriptionCount: Int($0.int64(1)), userCount: Int($0.int64(2)))
        }
    }

    /// Records this node's heartbeat; returns whether its row was missing (first start, or other nodes declared
    /// it dead meanwhile and removed its connections).
    static func beat(_ connection: PostgresConnection, node: String) throws -> Bool {
        try connection.firstRow(
            """
            INSERT INTO \(nodes) (node, beat) VALUES (?, now())
            ON CONFLICT (node) DO UPDATE SET beat = now() RETURNING (xmax = 0)
            """, [.text(node)]
        ) { $0.bool(0) } ?? true
    }

    /// Nodes whose heartbeat is older than `timeout` seconds.
    static func staleNodes(_ connection: PostgresConnection, except node: String, timeout: Double) throws -> [String] {
        try connection.rows(
            "SELECT node FROM \(nodes) WHERE node <> ? AND beat < now() - make_interval(secs => ?) ORDER BY node",
            [.text(node), .real(timeout)]
        ) { $0.text(0) ?? "" }
    }

    /// Nodes without a heartbeat row whose connections were recorded more than `timeout` seconds ago: rows that
    /// outlived their node's removal (a live node records its connections again within a beat of finding its row
    /// gone, so its rows are never that old without one).
    static func orphanedNodes(_ connection: PostgresConnection, except node: String, timeout: Double) throws -> [String]
    {
        try connection.rows(
            """
            SELECT DISTINCT m.node FROM \(members) m
            WHERE m.node <> ? AND m.joined < now() - make_interval(secs => ?)
                AND NOT EXISTS (SELECT 1 FROM \(nodes) n WHERE n.node = m.node)
            ORDER BY m.node
            """, [.text(node), .real(timeout)]
        ) { $0.text(0) ?? "" }
    }

    /// Drops messages older than `age` seconds.
    static func prune(_ connection: PostgresConnection, olderThan age: Double) throws {
        try connection.run("DELETE FROM \(log) WHERE at < clock_timestamp() - make_interval(secs => ?)", [.real(age)])
    }

    /// The log's last `seq`.
    static func head(_ connection: PostgresConnection) throws -> Int64 {
        try connection.firstRow("SELECT COALESCE(max(seq), 0) FROM \(log)") { $0.int64(0) } ?? 0
    }

    /// Messages after `seq`, oldest first, at most `limit`; a body over `maximumBytes` reads as empty (the reader
    /// skips it) so that no row can make a node hold more than that.
    static func messages(_ connection: PostgresConnection, after seq: Int64, limit: Int, maximumBytes: Int) throws
        -> [ChannelClusterMessage]
    {
        try connection.rows(
            """
            SELECT seq, node, app, CASE WHEN octet_length(body) <= ? THEN body ELSE '' END FROM \(log)
            WHERE seq > ? ORDER BY seq LIMIT \(limit)
            """, [.integer(Int64(maximumBytes)), .integer(seq)]
        ) {
            ChannelClusterMessage(
                seq: $0.int64(0), node: $0.text(1) ?? "", applicationId: $0.text(2) ?? "", body: $0.text(3) ?? "")
        }
    }
}
