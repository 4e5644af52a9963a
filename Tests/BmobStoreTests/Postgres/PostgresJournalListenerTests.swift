@testable import BmobStore
import Testing

/// When the journal listener reads the journal: for notifications of commits it does not know yet, for a poll
/// interval without any, never just for the node's own commits.
@Suite("PostgreSQL journal listener wake-ups")
struct PostgresJournalListenerTests {
    private func notes(_ payloads: String...) -> [PostgresNotification] {
        payloads.map { PostgresNotification(channel: "bmob_app", payload: $0) }
    }

    @Test("heads it knows (its own commits) need no read; a newer head, a poll or an unknown payload do")
    func wakeUps() {
        #expect(PostgresJournalListener.announcesNothingNew(notes("7", "9"), known: 9))
        #expect(PostgresJournalListener.announcesNothingNew(notes("9", "sessions"), known: 9))
        #expect(!PostgresJournalListener.announcesNothingNew(notes("7", "10"), known: 9))
        #expect(!PostgresJournalListener.announcesNothingNew([], known: 9), "a poll interval reads the journal")
        #expect(!PostgresJournalListener.announcesNothingNew(notes("sessions"), known: 9))
        #expect(!PostgresJournalListener.announcesNothingNew(notes("9x"), known: 9))
        #expect(!PostgresJournalListener.announcesNothingNew(notes(""), known: 9))
    }
}
