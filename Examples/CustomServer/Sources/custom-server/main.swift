// A Bmob server of one's own: everything `bmob serve` does (the same options, BMOB_* variables and --config file),
// plus one cloud function, one trigger and two sync functions (a live query and a mutation) written in Swift.
//
//   swift run custom-server --data ./data --port 8080
//   curl -X POST http://127.0.0.1:8080/1/functions/hello -H 'X-Bmob-Application-Id: …' \
//        -H 'X-Bmob-REST-API-Key: …' -H 'Content-Type: application/json' -d '{"name": "Bmob"}'
import BmobServer

var functions = CloudFunctions()

// `BmobCloud.run(function: "hello", params: ["name": "Bmob"])` answers "Hello, Bmob!". Parameters of encrypted
// calls arrive as strings, as on Bmob's own servers.
functions.register("hello") { request in
    let name = request.params["name"]?.stringValue ?? "world"
    return .string("Hello, \(name)!")
}

// Every save of a `Score`, from any client and any door, passes here first: a negative score is refused with a
// Bmob error, and a player's name is stored trimmed.
functions.on(.beforeSave, className: "Score") { request in
    if let points = request.object?["points"]?.doubleValue, points < 0 {
        throw CloudFunctionError(code: 142, message: "points cannot be negative")
    }
    guard let name = request.object?["player"]?.stringValue else { return nil }
    return ["player": .string(String(name.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()))]
}

// Live queries for `OnebaseClient`s (the app's base URL is `http://host:port/apps/<Application ID>`):
// `client.subscribe("scores:top", ["limit": 3]) { value in … }` gets the best scores now and again after every
// write that can change them. Every class also has `<Class>:list/get/add/update/remove` built in.
functions.query("scores:top", args: ["limit": .optional(.int)]) { context, args in
    let limit = Int(args["limit"]?.int64Value ?? 3)
    return .array(try context.db.list("Score", order: "-points", limit: limit).map(JSONValue.object))
}

// A mutation's reads and writes commit together, or not at all when it throws.
functions.mutation("scores:bump", args: ["objectId": .id]) { context, args in
    let id = args["objectId"]?.stringValue ?? ""
    guard try context.db.get("Score", objectId: id) != nil else { throw SyncFunctionError("no such score") }
    try context.db.patch("Score", objectId: id, ["points": ["__op": "Increment", "amount": 1]])
    return .null
}

BmobServe.main(functions: functions)
