package import BmobRealtime

/// The wait before reconnecting (`sync.md` §1.7): the cap doubles from the initial one with each failed attempt in a
/// row, up to the maximum (1 s, 2 s, 4 s, 8 s, 16 s, 16 s…), and the wait is drawn between half the cap and the cap,
/// so that clients dropped together do not come back together.
package typealias OnebaseReconnectBackoff = ReconnectBackoff
