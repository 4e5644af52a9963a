/// The fan-out client draws WebSocket keys and masking keys from it: they need to be unpredictable to no one
/// on a loopback benchmark, and a system call per frame would be the client's cost, not the server's.
extension FastRandom: RandomNumberGenerator {}
