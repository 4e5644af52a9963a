import BmobHTTP
import BmobWire
import Testing

@Suite struct RouterTests {
    private func router() -> Router {
        var router = Router()
        router.add(.get, "/1/classes/:className")  // 0
        router.add(.post, "/1/classes/:className")  // 1
        router.add(.get, "/1/classes/:className/:objectId")  // 2
        router.add(.get, "/1/classes/special")  // 3
        router.add(.delete, "/2/files/:cdn/**")  // 4
        router.add(.get, "/health")  // 5
        return router
    }

    private func index(_ match: Router.Match) -> Int? {
        if case .found(let route, _) = match { route.index } else { nil }
    }

    private func parameters(_ match: Router.Match) -> RouteParameters? {
        if case .found(_, let parameters) = match { parameters } else { nil }
    }

    @Test func capturesParameters() {
        let match = router().match(.get, path: "/1/classes/GameScore/abc123")
        #expect(index(match) == 2)
        #expect(parameters(match)?["className"] == "GameScore")
        #expect(parameters(match)?["objectId"] == "abc123")
    }

    @Test func acceptsOneTrailingSlash() {
        #expect(index(router().match(.post, path: "/1/classes/GameScore/")) == 1)
        #expect(index(router().match(.get, path: "/health/")) == 5)
        #expect(index(router().match(.get, path: "/health//")) == nil)
    }

    @Test func literalsBeatParameters() {
        #expect(index(router().match(.get, path: "/1/classes/special")) == 3)
        #expect(index(router().match(.get, path: "/1/classes/other")) == 0)
    }

    @Test func restCapturesTheRemainingPath() {
        let match = router().match(.delete, path: "/2/files/upyun/2019/01/09/a.png")
        #expect(index(match) == 4)
        #expect(parameters(match)?["cdn"] == "upyun")
        #expect(parameters(match)?["**"] == "2019/01/09/a.png")
    }

    @Test func parametersArePercentDecodedButPlusStays() {
        let match = router().match(.get, path: "/1/classes/A%20B+C")
        #expect(parameters(match)?["className"] == "A B+C")
    }

    @Test func wrongMethodListsTheAllowedOnes() {
        guard case .methodNotAllowed(let methods) = router().match(.put, path: "/1/classes/X") else {
            Issue.record("expected methodNotAllowed")
            return
        }
        #expect(methods == [.get, .post])
    }

    @Test func headFallsBackToGet() {
        #expect(index(router().match(.head, path: "/health")) == 5)
    }

    @Test func unknownPathsAreNotFound() {
        for path in ["/", "/nope", "/1/classes", "/1/classes/A/b/c", "health", "/1//classes/A"] {
            guard case .notFound = router().match(.get, path: Substring(path)) else {
                Issue.record("\(path) should not match")
                continue
            }
        }
    }

    @Test("paths are matched as bytes: a slice of a longer target, and segments beyond ASCII")
    func matchesSlicesAndNonASCIISegments() {
        var router = Router()
        router.add(.get, "/1/类/:name")  // 0
        router.add(.get, "/1/类别")  // 1
        let target = "/1/类/%E5%90%8D?where=%7B%7D"
        let match = router.match(.get, path: target[..<target.firstIndex(of: "?")!])
        #expect(index(match) == 0)
        #expect(parameters(match)?["name"] == "名")
        #expect(index(router.match(.get, path: "/1/类别")) == 1)
        #expect(index(router.match(.get, path: "/1/类别/")) == 1)
        guard case .notFound = router.match(.get, path: "/1/类x/a") else {
            Issue.record("a literal matched a longer segment")
            return
        }
    }

    @Test func copiesDoNotShareLaterRoutes() {
        let original = router()
        var copy = original
        copy.add(.get, "/extra")
        #expect(index(copy.match(.get, path: "/extra")) == 6)
        guard case .notFound = original.match(.get, path: "/extra") else {
            Issue.record("the original router changed")
            return
        }
    }

    @Test func routesSayHowTheirBodiesAreReceived() {
        var router = Router()
        router.add(.post, "/plain")
        router.add(.post, "/limited", bodyLimit: 10)
        router.add(.put, "/upload/:name", bodyLimit: 1 << 30, streamsBody: true)
        #expect(router.hasStreamedBodies)
        let policies = ["/plain", "/limited", "/upload/a.bin"].map { path -> HTTPRequestBodyPolicy? in
            let method: HTTPMethod = path.hasPrefix("/upload") ? .put : .post
            guard case .found(let route, _) = router.match(method, path: Substring(path)) else { return nil }
            return router.bodyPolicy(route)
        }
        #expect(
            policies == [
                .standard, HTTPRequestBodyPolicy(limit: 10), HTTPRequestBodyPolicy(limit: 1 << 30, streamed: true),
            ])
        var plain = Router()
        plain.add(.get, "/a")
        #expect(!plain.hasStreamedBodies)
    }
}
