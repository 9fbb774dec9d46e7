// Wrong passwords said on the server's terminal (RTSP and web alike), as sshd logs failed
// logins: someone guessing is seen, and a tool like fail2ban can act on the lines.
#pragma once

/// Notes a request refused (401) although it gave a password: a wrong one or an unknown
/// `user` (the name its Authorization header gave, or NULL). `side` is "RTSP" or "web",
/// `address` the client's.
/// At most one line each 10 s, with the count of those not said since the last, so a
/// guesser cannot flood the terminal.
void fc_note_wrong_password(const char *side, const char *address, const char *user);

/// Says the count of those not said, once the quiet time is over (called each second), so
/// a burst of guesses that then stops is counted too.
void fc_wrong_passwords_tick(void);
