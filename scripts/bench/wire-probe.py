"""Times OP_MSG round trips against a MongoDB-compatible server from a client without a tracing
garbage collector, so that the figure is the server's (and the loopback's), not the client's.

usage: python3 wire-probe.py <host> <port> <messages file>
The file holds whole OP_MSG messages back to back; prints one line: p50 p99 max (milliseconds),
over the second half of the messages (the first half warms the connection and the server)."""
import socket
import struct
import sys
import time

host, port, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
data = open(path, 'rb').read()
connection = socket.create_connection((host, port))
connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
offset = 0
latencies = []
while offset < len(data):
    length = struct.unpack_from('<i', data, offset)[0]
    message = data[offset:offset + length]
    offset += length
    started = time.perf_counter()
    connection.sendall(message)
    reply = b''
    while len(reply) < 4 or len(reply) < struct.unpack_from('<i', reply, 0)[0]:
        chunk = connection.recv(65536)
        if not chunk:
            sys.exit('connection closed')
        reply += chunk
    latencies.append((time.perf_counter() - started) * 1000)
measured = sorted(latencies[len(latencies) // 2:])
print('%.3f %.3f %.3f' % (measured[len(measured) // 2], measured[int(len(measured) * 0.99)], measured[-1]))
