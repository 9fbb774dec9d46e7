"""A raw RTSP client for the serve tests: one TCP connection, requests and their answers,
and RTP interleaved on the same connection counted. Only what the tests need:
sessions, Digest, TCP and UDP SETUP, sending anything at all."""
import hashlib
import re
import select
import socket
import ssl
import threading
import time


class Rtsp:
    def __init__(self, port, user=None, password=None, tls=False):
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=5)
        if tls:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
            context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
            self.socket = context.wrap_socket(self.socket)
        self.buffer = b""
        self.cseq = 0
        self.user, self.password = user, password
        self.challenge = None
        self.rtp_packets = 0
        self.key_frame_at = None   # when the first H.264 key frame arrived
        self.bye_seen = False      # an RTCP BYE came on an odd (RTCP) channel: the stream ended

    def close(self):
        self.socket.close()

    def send(self, data):
        self.socket.sendall(data)

    def _fill(self, deadline):
        self.socket.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            data = self.socket.recv(65536)
        except socket.timeout:
            return False
        if not data:
            raise ConnectionError("closed by the server")
        self.buffer += data
        return True

    def _skip_interleaved(self, deadline):
        """Drops the interleaved packets at the front of the buffer (counting them);
        False when a whole packet has not arrived before DEADLINE."""
        while self.buffer[:1] == b"$":
            while len(self.buffer) < 4:
                if not self._fill(deadline):
                    return False
            size = int.from_bytes(self.buffer[2:4], "big")
            while len(self.buffer) < 4 + size:
                if not self._fill(deadline):
                    return False
            self.rtp_packets += 1
            if self.buffer[1] % 2 == 1 and is_bye(self.buffer[4:4 + size]):
                self.bye_seen = True
            if self.key_frame_at is None and is_key_frame(self.buffer[4:4 + size]):
                self.key_frame_at = time.monotonic()
            self.buffer = self.buffer[4 + size:]
        return True

    def response(self, timeout=5):
        """(status, headers) of the next answer; interleaved RTP before it is counted."""
        deadline = time.monotonic() + timeout
        while True:
            if not self._skip_interleaved(deadline):
                raise TimeoutError("no answer")
            end = self.buffer.find(b"\r\n\r\n")
            if self.buffer and self.buffer[:1] != b"$" and end >= 0:
                break
            if not self._fill(deadline):
                raise TimeoutError("no answer")
        head, self.buffer = self.buffer[:end].decode(errors="replace"), self.buffer[end + 4:]
        lines = head.split("\r\n")
        headers = {}
        for line in lines[1:]:
            k, _, v = line.partition(":")
            headers[k.strip().lower()] = v.strip()
        size = int(headers.get("content-length", 0))
        while len(self.buffer) < size:
            if not self._fill(deadline):
                raise TimeoutError("body cut short")
        self.buffer = self.buffer[size:]
        if "www-authenticate" in headers:
            self.challenge = headers["www-authenticate"]
        return int(lines[0].split()[1]), headers

    def _authorization(self, method, url):
        if not (self.user and self.challenge):
            return []
        realm = re.search(r'realm="([^"]+)"', self.challenge).group(1)
        nonce = re.search(r'nonce="([^"]+)"', self.challenge).group(1)
        h = lambda text: hashlib.md5(text.encode()).hexdigest()
        response = h(f"{h(f'{self.user}:{realm}:{self.password}')}:{nonce}:{h(f'{method}:{url}')}")
        return [f'Authorization: Digest username="{self.user}", realm="{realm}", nonce="{nonce}", '
                f'uri="{url}", response="{response}"']

    def request(self, method, url, *headers, timeout=5):
        """Sends one request (with Digest once challenged); returns (status, headers)."""
        for _ in range(2):
            self.cseq += 1
            lines = [f"{method} {url} RTSP/1.0", f"CSeq: {self.cseq}", *headers, *self._authorization(method, url)]
            self.send(("\r\n".join(lines) + "\r\n\r\n").encode())
            status, answer = self.response(timeout)
            if status != 401 or not self.user or self.challenge is None or _ > 0:
                return status, answer
        return status, answer

    def watch(self, url, transport="RTP/AVP/TCP;unicast;interleaved=0-1"):
        """DESCRIBE, SETUP, PLAY; returns the session id (asserting each step's 200)."""
        status, _ = self.request("DESCRIBE", url, "Accept: application/sdp")
        assert status == 200, f"DESCRIBE: {status}"
        status, headers = self.request("SETUP", url + "/stream=0", f"Transport: {transport}")
        assert status == 200, f"SETUP: {status}"
        session = headers["session"].split(";")[0]
        self.play_sent = time.monotonic()
        status, _ = self.request("PLAY", url, f"Session: {session}")
        assert status == 200, f"PLAY: {status}"
        return session

    def wait_key_frame(self, timeout):
        """Seconds from PLAY to the first key frame (None if none within TIMEOUT from now)."""
        deadline = time.monotonic() + timeout
        while self.key_frame_at is None and time.monotonic() < deadline:
            self.count_rtp(min(0.05, max(0.0, deadline - time.monotonic())))
        return None if self.key_frame_at is None else self.key_frame_at - self.play_sent

    def wait_bye(self, timeout):
        """Whether the server's RTCP BYE (the end of its stream) arrives within TIMEOUT."""
        deadline = time.monotonic() + timeout
        while not self.bye_seen and time.monotonic() < deadline:
            self.count_rtp(min(0.05, max(0.0, deadline - time.monotonic())))
        return self.bye_seen

    def count_rtp(self, seconds):
        """Interleaved RTP packets received in the next SECONDS (answers are not expected)."""
        before, deadline = self.rtp_packets, time.monotonic() + seconds
        while time.monotonic() < deadline:
            if not self._skip_interleaved(deadline):
                break
            if self.buffer:
                raise AssertionError(f"unexpected data: {self.buffer[:80]!r}")
            try:
                self._fill(deadline)
            except ConnectionError:
                break
        return self.rtp_packets - before


def is_bye(rtcp):
    """Whether a compound RTCP packet (RFC 3550) holds a BYE (packet type 203)."""
    offset = 0
    while offset + 4 <= len(rtcp):
        if rtcp[offset + 1] == 203:
            return True
        offset += (int.from_bytes(rtcp[offset + 2:offset + 4], "big") + 1) * 4
    return False


def is_key_frame(rtp):
    """Whether an RTP packet of H.264 (RFC 6184) carries the start of an IDR picture."""
    if len(rtp) < 14:
        return False
    payload = rtp[12 + 4 * (rtp[0] & 0x0F):]
    if not payload:
        return False
    kind = payload[0] & 0x1F
    if kind == 28 and len(payload) > 1:          # FU-A: the start fragment names the type
        return payload[1] & 0x80 != 0 and payload[1] & 0x1F == 5
    if kind == 24:                               # STAP-A: several units in one packet
        i = 1
        while i + 2 < len(payload):
            size = int.from_bytes(payload[i:i + 2], "big")
            if i + 2 < len(payload) and payload[i + 2] & 0x1F == 5:
                return True
            i += 2 + size
        return False
    return kind == 5


def udp_key_frame(viewer, url, timeout=3):
    """Watches over UDP on a port pair the OS gives; seconds from PLAY to the first key
    frame (None: none within TIMEOUT)."""
    rtp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    rtp.bind(("127.0.0.1", 0))
    port = rtp.getsockname()[1]
    try:
        viewer.request("DESCRIBE", url, "Accept: application/sdp")
        status, headers = viewer.request("SETUP", url + "/stream=0", f"Transport: RTP/AVP;unicast;client_port={port}-{port + 1}")
        assert status == 200, f"SETUP: {status}"
        session = headers["session"].split(";")[0]
        sent = time.monotonic()
        viewer.request("PLAY", url, f"Session: {session}")
        deadline = sent + timeout
        while time.monotonic() < deadline:
            rtp.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                if is_key_frame(rtp.recv(65536)):
                    return time.monotonic() - sent
            except socket.timeout:
                break
        return None
    finally:
        rtp.close()


def join_at_once(port, url, count, transport, timeout=3, since_connect=False):
    """COUNT viewers connect at the same moment and play over TRANSPORT ("tcp" or "udp");
    returns for each the seconds from its PLAY (or, with SINCE_CONNECT, from its connect)
    to its first key frame, None when none came within TIMEOUT."""
    gate = threading.Barrier(count)
    waits = []

    def join():
        gate.wait()
        started = time.monotonic()
        viewer = Rtsp(port)
        try:
            if transport == "tcp":
                viewer.watch(url)
                wait = viewer.wait_key_frame(timeout)
                if wait is not None and since_connect:
                    wait += viewer.play_sent - started
            else:
                wait = udp_key_frame(viewer, url, timeout)
            waits.append(wait)
        except Exception as e:   # noqa: BLE001 (counted as no picture)
            waits.append(None)
            print(f"viewer failed: {e!r}")
        finally:
            viewer.close()
    threads = [threading.Thread(target=join) for _ in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout + 30)
    return waits


def hello_then_stall(port, address):
    """A TLS client from ADDRESS (a loopback one) that sends its hello and nothing more."""
    connection = socket.create_connection(("127.0.0.1", port), source_address=(address, 0))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    outgoing = ssl.MemoryBIO()
    tls = context.wrap_bio(ssl.MemoryBIO(), outgoing)
    try:
        tls.do_handshake()
    except ssl.SSLWantReadError:
        pass
    connection.sendall(outgoing.read())
    return connection


def readable(connections, seconds):
    """Those of CONNECTIONS with bytes (or their end) to read within SECONDS."""
    return select.select(connections, [], [], max(0, seconds))[0]
