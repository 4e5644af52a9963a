import BmobWire
import Testing

/// ``BmobDateFormat``: Bmob's `YYYY-MM-DD HH:MM:SS` text and UTC offsets.
@Suite struct BmobDateFormatTests {
    static let beijing = 8 * 3600

    @Test(arguments: [
        (Int64(1_437_531_770), beijing, "2015-07-22 10:22:50"),
        (1_712_902_737, beijing, "2024-04-12 14:18:57"),
        (1_437_531_770, 0, "2015-07-22 02:22:50"),
        (0, 0, "1970-01-01 00:00:00"),
        (0, beijing, "1970-01-01 08:00:00"),
        (0, -3600, "1969-12-31 23:00:00"),
        (-1, 0, "1969-12-31 23:59:59"),
        (-86_400, 0, "1969-12-31 00:00:00"),
        (-31_536_000, -(5 * 3600 + 1800), "1968-12-31 18:30:00"),
        (-2_208_988_800, 0, "1900-01-01 00:00:00"),
        (-62_135_596_800, 0, "0001-01-01 00:00:00"),
        (1_709_164_799, 0, "2024-02-28 23:59:59"),
        (1_709_164_800, 0, "2024-02-29 00:00:00"),
        (1_709_251_200, 0, "2024-03-01 00:00:00"),
        (1_709_136_000, beijing, "2024-02-29 00:00:00"),
        (951_825_600, 0, "2000-02-29 12:00:00"),
        (4_107_542_399, 0, "2100-02-28 23:59:59"),
        (4_107_542_400, 0, "2100-03-01 00:00:00"),
        (253_402_300_799, 0, "9999-12-31 23:59:59"),
    ])
    func knownTimestamps(seconds: Int64, offset: Int, text: String) {
        #expect(BmobDateFormat.format(secondsSince1970: seconds, offsetSeconds: offset) == text)
    }

    @Test func defaultOffsetIsUTC() {
        #expect(BmobDateFormat.format(secondsSince1970: 1_712_902_737) == "2024-04-12 06:18:57")
    }

    @Test func everyDayOfALeapYearFormatsInOrder() {
        // 2024-01-01 00:00:00 UTC; 366 consecutive noons must walk the calendar with Feb 29 in it.
        let start: Int64 = 1_704_067_200
        var previous = ""
        var february = 0
        for day in 0..<366 {
            let text = BmobDateFormat.format(secondsSince1970: start + Int64(day) * 86_400 + 43_200)
            #expect(text.hasPrefix("2024-"))
            #expect(text.hasSuffix(" 12:00:00"))
            #expect(text > previous)
            if text.hasPrefix("2024-02-") { february += 1 }
            previous = text
        }
        #expect(february == 29)
        #expect(previous == "2024-12-31 12:00:00")
    }

    @Test(arguments: [
        ("+08:00", 28_800),
        ("+0800", 28_800),
        ("+8", 28_800),
        ("+08", 28_800),
        ("-0530", -19_800),
        ("-05:30", -19_800),
        ("+05:45", 20_700),
        ("-12:00", -43_200),
        ("+14:00", 50_400),
        ("+00:00", 0),
        ("-00:00", 0),
        ("Z", 0),
        ("UTC", 0),
        ("utc", 0),
        ("GMT", 0),
        (" +08:00 ", 28_800),
    ])
    func parseOffset(text: String, seconds: Int) {
        #expect(BmobDateFormat.parseOffset(text) == seconds)
    }

    @Test(arguments: [
        "", " ", "08:00", "8", "+", "-", "+:", "+ab", "+08:xx", "+15:00", "+08:60", "+08:00:00", "+123456",
        "z", "PST", "Asia/Shanghai", "+-8", "-+8", "++8", "+\u{FF18}", "+8\u{301}", "UTC+8",
    ])
    func parseOffsetRejects(text: String) {
        #expect(BmobDateFormat.parseOffset(text) == nil)
    }

    @Test(arguments: [(28_800, "+08:00"), (-19_800, "-05:30"), (0, "+00:00"), (20_700, "+05:45"), (-43_200, "-12:00")])
    func formatOffset(seconds: Int, text: String) {
        #expect(BmobDateFormat.formatOffset(seconds) == text)
        #expect(BmobDateFormat.parseOffset(text) == seconds)
    }
}
