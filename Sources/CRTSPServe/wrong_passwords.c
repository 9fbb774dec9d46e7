// See wrong_passwords.h.
#include "wrong_passwords.h"
#include <glib.h>
#include <string.h>

#define FC_WRONG_PASSWORD_QUIET_SECONDS 10

static GMutex lock;
static gint64 last_said;   // monotonic µs, 0: never
static int unsaid;         // noted since, not said

void fc_wrong_passwords_tick(void) {
  gint64 now = g_get_monotonic_time();
  g_mutex_lock(&lock);
  int count = unsaid > 0 && now - last_said >= FC_WRONG_PASSWORD_QUIET_SECONDS * G_USEC_PER_SEC ? unsaid : 0;
  if (count > 0) {
    last_said = now;
    unsaid = 0;
  }
  g_mutex_unlock(&lock);
  if (count > 0) g_printerr("filtercam serve: %d more wrong password%s since the last such line\n", count, count == 1 ? "" : "s");
}

void fc_note_wrong_password(const char *side, const char *address, const char *user) {
  gint64 now = g_get_monotonic_time();
  g_mutex_lock(&lock);
  gboolean say = last_said == 0 || now - last_said >= FC_WRONG_PASSWORD_QUIET_SECONDS * G_USEC_PER_SEC;
  int before = unsaid;
  if (say) {
    last_said = now;
    unsaid = 0;
  } else {
    unsaid++;
  }
  g_mutex_unlock(&lock);
  if (!say) return;
  // A guesser's bytes, not the terminal's: escaped, and cut at 64 (a 5000-byte name was
  // one line of 4000 characters).
  char *cut = user && *user ? g_strndup(user, 64) : NULL;
  char *shown = cut ? g_strescape(cut, NULL) : NULL;
  size_t length = user ? strlen(user) : 0;
  g_free(cut);
  GString *line = g_string_new(NULL);
  g_string_append_printf(line, "filtercam serve: a wrong password (%s, from %s", side, address ? address : "?");
  if (shown && length > 64) g_string_append_printf(line, ", user \"%s...\" (%zu bytes)", shown, length);
  else if (shown) g_string_append_printf(line, ", user \"%s\"", shown);
  g_string_append(line, ")");
  if (before > 0) g_string_append_printf(line, "; %d more since the last such line", before);
  g_printerr("%s\n", line->str);
  g_string_free(line, TRUE);
  g_free(shown);
}
