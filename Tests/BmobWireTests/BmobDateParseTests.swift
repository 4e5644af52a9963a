import BmobWire
import Testing

@Suite struct BmobDateParseTests {
    @Test(arguments: [
        ("2015-07-22 02:22:50", Int64(1_437_531_770_000)),
        ("2015-07-22T02:22:50Z", 1_437_531_770_000),
        ("2015-07-22T02:22:50.123Z", 1_437_531_770_123),
        ("2015-07-22T02:22:50.1234567Z", 1_437_531_770_123),
        ("2015-07-22T02:22:50.5Z", 1_437_531_770_500),
        ("2015-07-22T10:22:50+08:00", 1_437_531_770_000),
        ("2015-07-21T21:22:50-05:00", 1_437_531_770_000),
        ("2015-07-22", 1_437_523_200_000),
        ("1970-01-01 00:00:00", 0),
        ("1969-12-31 23:59:59", -1000),
        ("2024-02-29 12:00:00", 1_709_208_000_000),
    ])
    func parsesTheFormsClientsSend(text: String, milliseconds: Int64) {
        #expect(BmobDateFormat.parse(text) == milliseconds)
    }

    @Test(arguments: [
        "", "2015", "2015-13-01", "2023-02-29", "2015-07-22X02:22:50", "2015-07-22 25:00:00", "2015-07-22 02:60:00",
        "2015-07-22T02:22:50.Z", "2015-07-22T02:22:50+25:00", "abcd-ef-gh", "2015-07-22 02:22:50 extra",
    ])
    func rejectsMalformedDates(text: String) {
        #expect(BmobDateFormat.parse(text) == nil)
    }

    @Test func formatsMillisecondsAsUTCText() {
        #expect(BmobDateFormat.format(millisecondsSince1970: 1_437_531_770_999) == "2015-07-22 02:22:50")
        #expect(BmobDateFormat.format(millisecondsSince1970: -1) == "1969-12-31 23:59:59")
    }
}
