package import BmobRealtime

/// The wait before a reconnection: exponential backoff with full jitter between the minimum and the cap.
///
/// After the `n`th consecutive failure the cap is `min(maximum, minimum × 2ⁿ⁻¹)` and the delay is uniform in
/// `[minimum, cap]`: 1 s after the first failure, up to 2 s after the second, 4 s, 8 s, 16 s, then 30 s.
package typealias BirdReconnectBackoff = ReconnectBackoff
