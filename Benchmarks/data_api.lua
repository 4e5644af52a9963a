-- wrk script for Benchmarks/data_api.py: replays pre-generated requests in a loop.
--
--   wrk ... -s Benchmarks/data_api.lua URL -- REQUESTS_FILE ["Header: value" ...]
--
-- REQUESTS_FILE holds one request a line, `METHOD<TAB>PATH[<TAB>BODY]`; every request is formatted once in
-- init(), so request() is a table lookup and the load generator stays cheap. done() prints one line,
-- `BENCH_JSON {...}`, with exact counts and latency percentiles in microseconds.
--
-- With BENCH_CAPTURE=FILE in the environment, failing responses (status >= 300) are appended to FILE with the
-- request most recently sent, for diagnosing server errors; the benchmark runs never set it, since a
-- response() hook makes wrk parse every body.

local requests = {}
local paths = {}
local count = 0
local index = 0

function init(args)
   local headers = {}
   for i = 2, #args do
      local name, value = args[i]:match("^([^:]+):%s*(.*)$")
      headers[name] = value
   end
   for line in io.lines(args[1]) do
      local method, path, body = line:match("^(%u+)\t([^\t]+)\t?(.*)$")
      if body == "" then body = nil end
      count = count + 1
      requests[count] = wrk.format(method, path, headers, body)
      paths[count] = method .. " " .. path .. (body and (" " .. body) or "")
   end
end

function request()
   index = index % count + 1
   return requests[index]
end

local capture = os.getenv("BENCH_CAPTURE")
if capture then
   local captured = 0
   function response(status, headers, body)
      if status >= 300 and captured < 5 then
         captured = captured + 1
         local file = io.open(capture, "a")
         file:write("last request sent: ", paths[index], "\n", "response: ", status, " ", body or "", "\n\n")
         file:close()
      end
   end
end

function done(summary, latency, requests)
   local errors = summary.errors
   io.write(string.format(
      'BENCH_JSON {"requests":%d,"duration_us":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,'
         .. '"p50_us":%d,"p90_us":%d,"p99_us":%d,"p999_us":%d,"max_us":%d}\n',
      summary.requests, summary.duration, errors.connect, errors.read, errors.write, errors.status,
      errors.timeout, latency:percentile(50), latency:percentile(90), latency:percentile(99),
      latency:percentile(99.9), latency.max))
end
