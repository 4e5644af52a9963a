@testable import BirdRealtime
import BmobRealtime
import Foundation
import BmobWire
import Testing

@Suite("BirdRealtime: the connection state machine")
struct BirdConnectionStateMachineTests {
    typealias Machine = BirdConnectionStateMachine
    typealias Action = Machine.Action

    static func established(_ id: String, timeout: Int = 120) -> String {
        #"{"event":"bird:connection_established","data":"{\"socket_id\":\"\#(id)\",\"activity_timeout\":\#(timeout)}"}"#
    }

    /// A machine connected as `1.1` on attempt 1, with `jitter` as its random source.
    func connected(jitter: @escaping @Sendable () -> Double = { 0.5 }) -> Machine {
        var machine = Machine(jitter: jitter)
        _ = machine.connect()
        _ = machine.frameReceived(attempt: 1, text: Self.established("1.1"))
        return machine
    }

    private func sent(_ actions: [Action]) -> [String] {
        actions.compactMap { if case .send(_, let text) = $0 { text } else { nil } }
    }

    private func reconnectDelay(_ actions: [Action]) -> RealtimeDuration? {
        for action in actions {
            if case .startTimer(.reconnect, _, let delay) = action { return delay }
        }
        return nil
    }

    @Test("connect opens attempt 1; connection_established makes it connected, starts the activity timer")
    func connect() {
        var machine = Machine(jitter: { 0 })
        #expect(
            machine.connect() == [
                .stateChanged(previous: .initialized, current: .connecting), .openTransport(attempt: 1),
            ])
        #expect(machine.connect() == [])
        let actions = machine.frameReceived(attempt: 1, text: Self.established("12.34", timeout: 30))
        #expect(
            actions == [
                .stateChanged(previous: .connecting, current: .connected),
                .startTimer(.activity, attempt: 1, after: .seconds(30)),
            ])
        #expect(machine.connectionId == "12.34")
    }

    @Test("public channels subscribe with auth \"\"; private and presence ones ask the authorizer for this connection")
    func subscribe() {
        var machine = Machine(jitter: { 0 })
        _ = machine.connect()
        _ = machine.subscribe(try! PusherChannelName(validating: "orders"))
        _ = machine.subscribe(try! PusherChannelName(validating: "private-a"))
        let actions = machine.frameReceived(attempt: 1, text: Self.established("1.1"))
        #expect(sent(actions) == [#"{"event":"bird:subscribe","data":{"auth":"","channel":"orders"}}"#])
        #expect(actions.contains(.authorizeChannel(channel: "private-a", connectionId: "1.1")))
        let subscribe = machine.channelAuthorized(
            "private-a", connectionId: "1.1", authorization: BirdAuthorization(auth: "k:sig"))
        #expect(sent(subscribe) == [#"{"event":"bird:subscribe","data":{"auth":"k:sig","channel":"private-a"}}"#])
        // An authorization for an old connection id is dropped.
        #expect(
            machine.channelAuthorized("private-a", connectionId: "9.9", authorization: BirdAuthorization(auth: "x"))
                == [])
    }

    @Test("presence: myId from member_data, members from the hash, added and removed")
    func presence() {
        var machine = connected()
        #expect(
            machine.subscribe(try! PusherChannelName(validating: "presence-r")) == [
                .authorizeChannel(channel: "presence-r", connectionId: "1.1")
            ])
        let memberData = #"{"user_id":"u1","user_info":{"n":1}}"#
        let actions = machine.channelAuthorized(
            "presence-r", connectionId: "1.1", authorization: BirdAuthorization(auth: "k:s", memberData: memberData))
        #expect(actions.first == .setMyId(channel: "presence-r", memberId: "u1"))
        #expect(sent(actions).first?.contains(#""channel_data":"{\"user_id\":\"u1\""#) == true)
        let succeeded = machine.frameReceived(
            attempt: 1,
            text:
                #"{"event":"bird_internal:subscription_succeeded","channel":"presence-r","data":"{\"presence\":{\"count\":1,\"hash\":{\"u1\":{\"n\":1}},\"ids\":[\"u1\"]}}"}"#
        )
        #expect(
            succeeded == [
                .deliver(
                    channel: "presence-r", event: "bird:subscription_succeeded", data: ["u1": ["n": 1]],
                    presence: .snapshot(["u1": ["n": 1]]))
            ])
        let added = machine.frameReceived(
            attempt: 1,
            text: #"{"event":"bird_internal:member_added","channel":"presence-r","data":"{\"user_id\":\"u2\"}"}"#)
        #expect(
            added == [
                .deliver(
                    channel: "presence-r", event: "bird:member_added", data: ["user_id": "u2"],
                    presence: .added("u2", nil))
            ])
        let removed = machine.frameReceived(
            attempt: 1,
            text: #"{"event":"bird_internal:member_removed","channel":"presence-r","data":"{\"user_id\":\"u2\"}"}"#)
        #expect(
            removed == [
                .deliver(
                    channel: "presence-r", event: "bird:member_removed", data: ["user_id": "u2"],
                    presence: .removed("u2"))
            ])
    }

    @Test("an authorizer failure is bird:subscription_error on the channel, with the HTTP status")
    func authorizationFailure() {
        var machine = connected()
        _ = machine.subscribe(try! PusherChannelName(validating: "private-x"))
        let actions = machine.channelAuthorizationFailed(
            "private-x", connectionId: "1.1", error: BirdRealtimeError(message: "nope", status: 403))
        #expect(
            actions == [
                .deliver(
                    channel: "private-x", event: "bird:subscription_error",
                    data: ["type": "AuthError", "error": "nope", "status": 403], presence: nil)
            ])
    }

    @Test("a connection-level bird:error with a null code goes to onError at once; the connection stays")
    func serverRejection() {
        var machine = connected()
        let actions = machine.frameReceived(
            attempt: 1, text: #"{"event":"bird:error","data":{"code":null,"message":"Invalid signature"}}"#)
        #expect(actions == [.reportError(BirdRealtimeError(message: "Invalid signature"))])
        #expect(machine.connectionState == .connected)
    }

    @Test("4000–4099 are final: failed, the code reported once with the error frame's message, no reconnect")
    func refused() {
        var machine = connected()
        #expect(
            machine.frameReceived(
                attempt: 1, text: #"{"event":"bird:error","data":{"code":4009,"message":"session ended"}}"#) == [])
        let actions = machine.transportClosed(attempt: 1, code: 4009)
        let error = BirdRealtimeError(code: 4009, message: "session ended")
        #expect(
            actions == [
                .cancelTimers, .stateChanged(previous: .connected, current: .failed), .reportError(error),
                .failPendingSignins(error),
            ])
        #expect(machine.timerFired(.reconnect, attempt: 1) == [])
        // Without an error frame the code's meaning is the message.
        var other = connected()
        #expect(
            other.transportClosed(attempt: 1, code: 4001).contains(
                .reportError(BirdRealtimeError(code: 4001, message: "Application does not exist"))))
    }

    @Test("4200–4299 after an established connection reconnect at once; before it, they back off")
    func immediate() {
        for code in [4200, 4201, 4299] {
            var machine = connected()
            #expect(
                machine.transportClosed(attempt: 1, code: code) == [
                    .cancelTimers, .stateChanged(previous: .connected, current: .connecting),
                    .openTransport(attempt: 2),
                ])
        }
        var machine = Machine(jitter: { 0 })
        _ = machine.connect()
        #expect(reconnectDelay(machine.transportClosed(attempt: 1, code: 4200)) == .seconds(1))
    }

    @Test("everything else backs off: 1006, 1000, 1001, 4100, 4301, 3000, a failed open")
    func backoff() {
        for code in [1006, 1000, 1001, 4100, 4199, 4301, 4999, 3000] {
            var machine = connected(jitter: { 1 })
            let actions = machine.transportClosed(attempt: 1, code: code)
            #expect(actions.contains(.stateChanged(previous: .connected, current: .unavailable)), "\(code)")
            #expect(reconnectDelay(actions) == .seconds(1), "\(code)")
        }
        var machine = Machine(jitter: { 1 })
        _ = machine.connect()
        #expect(reconnectDelay(machine.transportOpenFailed(attempt: 1)) == .seconds(1))
        #expect(
            machine.timerFired(.reconnect, attempt: 1) == [
                .stateChanged(previous: .unavailable, current: .connecting), .openTransport(attempt: 2),
            ])
    }

    @Test(
        "consecutive failures: each delay within [1 s, cap], the cap doubling to 30 s; an established connection resets it"
    )
    func backoffSequence() {
        let unit = LockedUnit(1)
        var machine = Machine(jitter: { unit.value })
        _ = machine.connect()
        var delays: [RealtimeDuration] = []
        for attempt in 1...8 {
            delays.append(reconnectDelay(machine.transportOpenFailed(attempt: attempt))!)
            _ = machine.timerFired(.reconnect, attempt: attempt)
        }
        #expect(delays == [1, 2, 4, 8, 16, 30, 30, 30].map { RealtimeDuration.seconds($0) })
        unit.value = 0
        #expect(reconnectDelay(machine.transportOpenFailed(attempt: 9)) == .seconds(1))
        _ = machine.timerFired(.reconnect, attempt: 9)
        _ = machine.frameReceived(attempt: 10, text: Self.established("2.2"))
        #expect(machine.failures == 0)
        unit.value = 1
        #expect(reconnectDelay(machine.transportClosed(attempt: 10, code: 1006)) == .seconds(1))
    }

    @Test("a reconnection subscribes every channel again with a fresh authorization and signs in again")
    func resubscribe() {
        var machine = connected()
        _ = machine.subscribe(try! PusherChannelName(validating: "private-a"))
        _ = machine.subscribe(try! PusherChannelName(validating: "pub"))
        _ = machine.signin()
        _ = machine.transportClosed(attempt: 1, code: 4200)
        let actions = machine.frameReceived(attempt: 2, text: Self.established("2.2"))
        #expect(actions.contains(.authorizeChannel(channel: "private-a", connectionId: "2.2")))
        #expect(actions.contains(.authorizeMember(connectionId: "2.2")))
        #expect(sent(actions) == [#"{"event":"bird:subscribe","data":{"auth":"","channel":"pub"}}"#])
        // A late authorization for the old connection does nothing.
        #expect(
            machine.channelAuthorized("private-a", connectionId: "1.1", authorization: BirdAuthorization(auth: "old"))
                == [])
    }

    @Test("signin: auth, bird:signin, signin_success, then #server-to-user-{id}; its events go to the member")
    func signin() {
        var machine = connected()
        #expect(machine.signin() == [.authorizeMember(connectionId: "1.1")])
        let signin = machine.memberAuthorized(connectionId: "1.1", auth: "k:s", userData: #"{"id":"u7"}"#)
        #expect(sent(signin) == [#"{"event":"bird:signin","data":{"auth":"k:s","user_data":"{\"id\":\"u7\"}"}}"#])
        let success = machine.frameReceived(
            attempt: 1, text: #"{"event":"bird:signin_success","data":{"user_data":"{\"id\":\"u7\"}"}}"#)
        #expect(sent(success) == [##"{"event":"bird:subscribe","data":{"auth":"","channel":"#server-to-user-u7"}}"##])
        #expect(success.contains(.signinSucceeded(BirdSignin(memberId: "u7", memberData: #"{"id":"u7"}"#))))
        let event = machine.frameReceived(
            attempt: 1, text: ##"{"event":"order.shipped","channel":"#server-to-user-u7","data":"{\"n\":1}"}"##)
        #expect(event == [.deliverToMember(event: "order.shipped", data: ["n": 1])])
        // Another member's channel is not ours.
        #expect(
            machine.frameReceived(attempt: 1, text: ##"{"event":"x","channel":"#server-to-user-u8","data":"1"}"##) == []
        )
        #expect(machine.signin() == [.signinSucceeded(BirdSignin(memberId: "u7", memberData: #"{"id":"u7"}"#))])
    }

    @Test("a member endpoint failure is signinFailed (onSigninError when nobody waits)")
    func signinFailure() {
        var machine = connected()
        _ = machine.signin()
        #expect(
            machine.memberAuthorizationFailed(connectionId: "1.1", error: BirdRealtimeError(message: "down")) == [
                .signinFailed(BirdRealtimeError(message: "down"))
            ])
    }

    @Test("silence: ping after activity_timeout, and a connection silent after the ping is replaced at once")
    func activity() {
        var machine = connected()
        // A frame arrived since the timer started: just re-arm.
        _ = machine.frameReceived(attempt: 1, text: #"{"event":"bird:pong","data":{}}"#)
        #expect(machine.timerFired(.activity, attempt: 1) == [.startTimer(.activity, attempt: 1, after: .seconds(120))])
        let ping = machine.timerFired(.activity, attempt: 1)
        #expect(sent(ping) == [#"{"event":"bird:ping","data":{}}"#])
        #expect(ping.contains(.startTimer(.pong, attempt: 1, after: .seconds(30))))
        #expect(
            machine.timerFired(.pong, attempt: 1) == [
                .cancelTimers, .closeTransport(attempt: 1, code: 4201),
                .stateChanged(previous: .connected, current: .connecting), .openTransport(attempt: 2),
            ])
        // The edge's pings are answered.
        var other = connected()
        #expect(
            sent(other.frameReceived(attempt: 1, text: #"{"event":"bird:ping","data":{}}"#)) == [
                #"{"event":"bird:pong","data":{}}"#
            ])
    }

    @Test("events of an attempt that is not current are ignored")
    func staleAttempt() {
        var machine = connected()
        _ = machine.transportClosed(attempt: 1, code: 4200)
        #expect(machine.frameReceived(attempt: 1, text: Self.established("5.5")) == [])
        #expect(machine.transportClosed(attempt: 1, code: 1006) == [])
        #expect(machine.timerFired(.activity, attempt: 1) == [])
    }

    @Test("client events: only client- names on subscribed private or presence channels, at most 10 KiB")
    func clientEvents() throws {
        var machine = connected()
        _ = machine.subscribe(try PusherChannelName(validating: "private-a"))
        _ = machine.subscribe(try PusherChannelName(validating: "pub"))
        #expect(throws: BirdRealtimeError.self) { try machine.clientEvent("client-x", channel: "private-a", data: [:]) }
        _ = machine.channelAuthorized("private-a", connectionId: "1.1", authorization: BirdAuthorization(auth: "k:s"))
        _ = machine.frameReceived(
            attempt: 1, text: #"{"event":"bird_internal:subscription_succeeded","channel":"private-a","data":"{}"}"#)
        _ = machine.frameReceived(
            attempt: 1, text: #"{"event":"bird_internal:subscription_succeeded","channel":"pub","data":"{}"}"#)
        #expect(
            try machine.clientEvent("client-typing", channel: "private-a", data: ["on": true])
                == .send(attempt: 1, text: #"{"event":"client-typing","channel":"private-a","data":{"on":true}}"#))
        #expect(throws: BirdRealtimeError.self) { try machine.clientEvent("typing", channel: "private-a", data: [:]) }
        #expect(throws: BirdRealtimeError.self) { try machine.clientEvent("client-x", channel: "pub", data: [:]) }
        #expect(throws: BirdRealtimeError.self) {
            try machine.clientEvent(
                "client-x", channel: "private-a", data: .string(String(repeating: "a", count: 11_000)))
        }
    }

    @Test("disconnect closes, stops timers and fails waiting signins; connect starts over")
    func disconnect() {
        var machine = connected()
        let actions = machine.disconnect()
        #expect(
            actions.prefix(3) == [
                .cancelTimers, .closeTransport(attempt: 1, code: 1000),
                .stateChanged(previous: .connected, current: .disconnected),
            ])
        #expect(machine.transportClosed(attempt: 1, code: 1000) == [])
        #expect(
            machine.connect() == [
                .stateChanged(previous: .disconnected, current: .connecting), .openTransport(attempt: 2),
            ])
    }
}

extension BirdConnectionStateMachineTests {
    @Test("a pong (any frame) after a ping re-arms the activity timer when the pong timer fires")
    func pongRearms() {
        var machine = connected()
        _ = machine.timerFired(.activity, attempt: 1)
        _ = machine.frameReceived(attempt: 1, text: #"{"event":"bird:pong","data":{}}"#)
        #expect(machine.timerFired(.pong, attempt: 1) == [.startTimer(.activity, attempt: 1, after: .seconds(120))])
        #expect(machine.connectionState == .connected)
        // The next silent period pings again.
        let ping = machine.timerFired(.activity, attempt: 1)
        #expect(ping.contains(.startTimer(.pong, attempt: 1, after: .seconds(30))))
    }

    @Test("a repeated connection_established on a connected connection is ignored")
    func repeatedHandshake() {
        var machine = connected()
        #expect(machine.frameReceived(attempt: 1, text: Self.established("9.9")) == [])
        #expect(machine.connectionId == "1.1")
    }
}
