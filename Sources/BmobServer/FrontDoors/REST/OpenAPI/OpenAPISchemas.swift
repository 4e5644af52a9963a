package import BmobWire

/// The document's shared parts: the schemas operations refer to, the `Error` response and the key headers'
/// security schemes. Written as JSON text, which reads like the document it becomes (and spares the compiler a
/// large literal).
package enum OpenAPISchemas {
    /// A reference to the component schema `name`.
    package static func ref(_ name: String) -> JSONValue {
        ["$ref": .string("#/components/schemas/" + name)]
    }

    /// A JSON object with these members (`required` listed), other members allowed; `example` is a valid one,
    /// which testers send first.
    package static func object(
        _ properties: [String: JSONValue], required: [String] = [], example: JSONValue? = nil
    ) -> JSONValue {
        var members: [String: JSONValue] = ["type": "object", "properties": .object(properties)]
        if !required.isEmpty { members["required"] = .array(required.map { .string($0) }) }
        if let example { members["examples"] = [example] }
        return .object(members)
    }

    /// A string schema.
    package static let string: JSONValue = ["type": "string"]
    /// An integer schema.
    package static let integer: JSONValue = ["type": "integer"]

    /// `components`: schemas, responses and security schemes.
    package static let components: JSONValue = {
        do {
            return try JSONParser.parse(componentsText)
        } catch {
            preconditionFailure("the OpenAPI components are not valid JSON: \(error)")
        }
    }()

    private static let componentsText = #"""
        {
          "securitySchemes": {
            "applicationId": {"type": "apiKey", "in": "header", "name": "X-Bmob-Application-Id",
              "description": "The app's id; sent with its REST API key or its Master Key."},
            "restKey": {"type": "apiKey", "in": "header", "name": "X-Bmob-REST-API-Key",
              "description": "The app's REST API key: a client of the app, subject to ACLs and class permissions."},
            "masterKey": {"type": "apiKey", "in": "header", "name": "X-Bmob-Master-Key",
              "description": "The app's Master Key: bypasses ACLs and class permissions; required for schemas."},
            "sessionToken": {"type": "apiKey", "in": "header", "name": "X-Bmob-Session-Token",
              "description": "A user's session token (from signup or login): the request acts as that user."}
          },
          "responses": {
            "Error": {
              "description": "A Bmob error: `code` is Bmob's error code (101 object not found, 102 bad query, 107 bad JSON, 111 wrong type, 206 session needed, 401 app keys, …), `error` a message.",
              "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
            }
          },
          "schemas": {
            "Error": {
              "type": "object", "required": ["code", "error"], "additionalProperties": false,
              "properties": {"code": {"type": "integer"}, "error": {"type": "string"}}
            },
            "Ok": {
              "type": "object", "required": ["msg"],
              "properties": {"msg": {"type": "string", "const": "ok"}}
            },
            "Date": {
              "type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$",
              "description": "yyyy-MM-dd HH:mm:ss, in the app's time zone (UTC unless set)"
            },
            "DateValue": {
              "type": "object", "required": ["__type", "iso"],
              "properties": {"__type": {"const": "Date"}, "iso": {"$ref": "#/components/schemas/Date"}}
            },
            "ACL": {
              "type": "object", "description": "Grantees (`*`, a user's objectId, `role:<name>`) to `read`/`write` rights.",
              "additionalProperties": {
                "type": "object",
                "properties": {"read": {"type": "boolean"}, "write": {"type": "boolean"}}
              }
            },
            "Fields": {
              "type": "object",
              "description": "An object's fields: JSON values, typed values (`{\"__type\": \"Date\"|\"Pointer\"|\"Relation\"|\"File\"|\"GeoPoint\", …}`) and, in updates, operators (`{\"__op\": \"Increment\"|\"Delete\"|\"Add\"|\"AddUnique\"|\"Remove\"|\"AddRelation\"|\"RemoveRelation\", …}`). Names start with a letter and use `[A-Za-z0-9_]`.",
              "properties": {"ACL": {"anyOf": [{"$ref": "#/components/schemas/ACL"}, {"type": "null"}], "description": "null: no ACL (public)"}},
              "examples": [{"score": 1337, "playerName": "Sean Plott", "cheatMode": false}]
            },
            "Object": {
              "type": "object", "required": ["objectId", "createdAt", "updatedAt"],
              "description": "An object as the caller may see it: its fields plus the system fields.",
              "properties": {
                "objectId": {"type": "string"},
                "createdAt": {"$ref": "#/components/schemas/Date"},
                "updatedAt": {"$ref": "#/components/schemas/Date"},
                "ACL": {"$ref": "#/components/schemas/ACL"}
              }
            },
            "Results": {
              "type": "object", "required": ["results"],
              "description": "Objects found (or, with statistics parameters, one row per group), and `count` when asked.",
              "properties": {
                "results": {"type": "array", "items": {"type": "object"}},
                "count": {"type": "integer", "minimum": 0}
              }
            },
            "Created": {
              "type": "object", "required": ["createdAt", "objectId"],
              "properties": {"createdAt": {"$ref": "#/components/schemas/Date"}, "objectId": {"type": "string"}}
            },
            "Updated": {
              "type": "object", "required": ["updatedAt"],
              "properties": {"updatedAt": {"$ref": "#/components/schemas/Date"}}
            },
            "SignedUp": {
              "type": "object", "required": ["createdAt", "objectId", "sessionToken"],
              "description": "A new user's id and session (a signup), or the whole user with its session (a third-party or phone login).",
              "properties": {
                "createdAt": {"$ref": "#/components/schemas/Date"},
                "objectId": {"type": "string"},
                "sessionToken": {"type": "string"}
              }
            },
            "LoggedIn": {
              "type": "object", "required": ["objectId", "createdAt", "updatedAt", "sessionToken"],
              "description": "The user as it may see itself (never its password) and a new session token.",
              "properties": {
                "objectId": {"type": "string"},
                "createdAt": {"$ref": "#/components/schemas/Date"},
                "updatedAt": {"$ref": "#/components/schemas/Date"},
                "username": {"type": "string"},
                "sessionToken": {"type": "string"}
              }
            },
            "Session": {
              "type": "object", "required": ["objectId", "createdAt", "expiresAt", "current"],
              "properties": {
                "objectId": {"type": "string", "description": "derived from the token's hash; cannot log in"},
                "createdAt": {"$ref": "#/components/schemas/Date"},
                "expiresAt": {"$ref": "#/components/schemas/Date"},
                "current": {"type": "boolean", "description": "whether it is the session making the request"}
              }
            },
            "Schema": {
              "type": "object", "required": ["className", "fields"],
              "properties": {
                "className": {"type": "string"},
                "fields": {
                  "type": "object",
                  "additionalProperties": {
                    "type": "object", "required": ["type"],
                    "properties": {"type": {"type": "string"}, "targetClass": {"type": "string"}}
                  }
                },
                "indexes": {"type": "array", "items": {"oneOf": [
                  {"type": "array", "items": {"type": "string"}, "description": "a plain index: its field paths"},
                  {"type": "object", "required": ["fields", "unique"], "description": "a unique index",
                   "properties": {"fields": {"type": "array", "items": {"type": "string"}}, "unique": {"const": true}}}
                ]}},
                "classLevelPermissions": {"type": "object"}
              }
            },
            "SchemaChange": {
              "type": "object",
              "description": "Fields to add (`{\"name\": {\"type\": \"String\"}}`, `{\"type\": \"Pointer\", \"targetClass\": \"_User\"}`) or remove (`\"__op\": \"Delete\"`), indexes (`[[\"score\"], [\"team\", \"-score\"]]`, or objects with `unique`) and `classLevelPermissions`.",
              "examples": [{"fields": {"score": {"type": "Number"}, "owner": {"type": "Pointer", "targetClass": "_User"}}}],
              "properties": {
                "className": {"type": ["string", "null"], "description": "the path's class, if given"},
                "fields": {"type": "object", "additionalProperties": {"type": "object"}},
                "indexes": {"type": "array"},
                "classLevelPermissions": {"type": ["object", "null"], "description": "per operation, the grantees allowed; null removes them"}
              }
            },
            "BatchRequest": {
              "type": "object", "required": ["requests"],
              "properties": {
                "requests": {
                  "type": "array", "maxItems": 50,
                  "items": {
                    "type": "object", "required": ["method", "path"],
                    "properties": {
                      "method": {"type": "string", "description": "POST, PUT, DELETE or GET, in any case"},
                      "path": {"type": "string", "description": "/1/classes/<C>[/<id>], /1/users[/<id>] or /1/roles[/<id>]"},
                      "body": {"type": "object"},
                      "token": {"type": "string", "description": "a session token for this element"}
                    }
                  }
                }
              }
            },
            "BatchAnswer": {
              "type": "array",
              "description": "One element per request, in order: its answer under `success`, or its error under `error`.",
              "items": {
                "type": "object", "minProperties": 1, "maxProperties": 1,
                "properties": {"success": {}, "error": {"$ref": "#/components/schemas/Error"}}
              }
            },
            "HistoryEntry": {
              "type": "object",
              "required": ["seq", "op", "at", "user", "door", "className", "objectId", "before", "after", "changed"],
              "properties": {
                "seq": {"type": "integer"},
                "op": {"type": "string"},
                "at": {"$ref": "#/components/schemas/DateValue"},
                "user": {"type": ["string", "null"], "description": "the user who made the change; null for the master key or nobody"},
                "door": {"type": ["string", "null"]},
                "className": {"type": "string"},
                "objectId": {"type": ["string", "null"]},
                "before": {"type": ["object", "null"]},
                "after": {"type": ["object", "null"]},
                "changed": {"type": ["array", "null"], "items": {"type": "string"}}
              }
            },
            "History": {
              "type": "object", "required": ["results"],
              "properties": {"results": {"type": "array", "items": {"$ref": "#/components/schemas/HistoryEntry"}}}
            },
            "ServerInfo": {
              "type": "object", "required": ["version", "capabilities", "limits", "realtime"],
              "properties": {
                "version": {"type": "string"},
                "capabilities": {"type": "array", "items": {"type": "string"}},
                "limits": {"type": "object", "additionalProperties": {"type": "integer"}},
                "realtime": {"type": "object", "additionalProperties": {"type": "string"}},
                "history": {"type": "object", "description": "the app's history retention (with an app's keys)"}
              }
            },
            "StoredFile": {
              "type": "object", "required": ["filename", "url", "cdn"],
              "properties": {"filename": {"type": "string"}, "url": {"type": "string"}, "cdn": {"type": "string"}}
            }
          }
        }
        """#
}
