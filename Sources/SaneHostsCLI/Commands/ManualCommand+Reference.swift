import Apply

extension ManualCommand {
  /// The sections a Debian user looks for after the commands: EXIT STATUS, ENVIRONMENT and FILES.
  static var reference: String {
    exitStatus + environment + files
  }

  static let exitStatus = #"""
    .SH EXIT STATUS
    .TP
    .B 0
    Success. \fBserve\fR also exits 0 when SIGINT or SIGTERM stops it cleanly; \fBfetch\fR when the list
    was not modified.
    .TP
    .B 1
    A failure; the message says what to do. Also \fBupdate\fR when every source failed, \fBcompile\fR
    when an input, a rules file or the output cannot be used, \fBwhy\fR when a name is not valid,
    \fBtest\fR when it could not run or gave no score, \fBapply\fR when nothing was written or the reload
    failed after writing.
    .TP
    .B 2
    \fBupdate\fR: a source's new copy was held back as a suspicious shrink (the others were updated).
    .TP
    .B 3
    \fBcompile\fR: an input held no valid name at all (the output is still written from the others).
    .TP
    .B 4
    \fBtest \-\-fail\-under\fR: the score is lower than asked.
    .TP
    .B 5
    A place is not blocking as it should: \fBapply \-\-verify\fR found a sampled name not blocked or a
    control domain blocked; \fBreapply\fR or \fBallow expire\fR could not apply (or verify) a place again;
    \fBfleet sync\fR or \fBfleet status\fR found a replica that differs or cannot be reached.
    .TP
    .B 64
    A usage error: an unknown command or option, a bad value, \fBhelp\fR of a command that does not exist.
    .TP
    .B 75
    \fBupdate\fR: another update is running (see \fB\-\-wait\fR).
    .TP
    .BR 130 " or " 143
    Interrupted by SIGINT (Ctrl-C) or SIGTERM; the running work is cancelled and leaves the store as it
    was.
    .TP
    .B 141
    The reader of the output went away (\fBsanehosts update | head \-1\fR); nothing is printed.

    """#

  static let environment = #"""
    .SH ENVIRONMENT
    .TP
    .B SANEHOSTS_HOME
    The data directory, unless \fB\-\-data\-dir\fR names one. The Debian package's units set it to
    \fI/var/lib/sanehosts\fR.
    .TP
    .B XDG_DATA_HOME
    Without \fBSANEHOSTS_HOME\fR, the data directory is \fI$XDG_DATA_HOME/sanehosts\fR (an absolute path
    only).
    .TP
    .B HOME
    Without either, the data directory is \fI~/.local/share/sanehosts\fR; \fBschedule install \-\-user\fR
    writes its units in \fI~/.config/systemd/user\fR.
    .TP
    .B XDG_CONFIG_HOME
    \fBschedule install \-\-user\fR writes its units in \fI$XDG_CONFIG_HOME/systemd/user\fR instead (an
    absolute path only).
    .TP
    .B SANEHOSTS_TOKEN
    The dashboard's access token for other machines (\fBserve \-\-token\fR); without either, one is
    generated, printed once and saved in \fIDATA/dashboard.token\fR.
    .TP
    .B SANEHOSTS_APPLY_PLACES
    For \fBreapply\fR and \fBallow expire\fR run as root on a data directory another user owns (the Debian
    package's): the files besides \fI/etc/hosts\fR and each DNS server's default drop-in they may write,
    as \fITARGET:PATH\fR words. No other place is taken from such a store.
    .TP
    .B PIHOLE_HOST
    The Pi-hole of the \fBpihole\fR commands when \fB\-\-host\fR is not given.
    .TP
    .B PIHOLE_PASSWORD
    The Pi-hole's password when no \fB\-\-password\-file\fR is given; before the one saved with
    \fBpihole \-\-save\-password\fR, and a prompt. Also a fleet's Pi-holes' password.
    .TP
    .B PATH
    Where the DNS servers' tools are looked for (\fBsystemctl\fR, \fBunbound\-control\fR, \fBrndc\fR,
    \fBrec_control\fR, the configuration checkers, \fBresolvectl\fR, \fBnscd\fR, \fBjournalctl\fR);
    \fI/usr/sbin\fR and \fI/sbin\fR are searched after it.
    .TP
    .B TERM
    \fBdumb\fR: no live progress redraws, even on a terminal.
    .TP
    .B COLUMNS
    The width of the text output when it is not a terminal (default 80).
    .TP
    .B SANEHOSTS_SERVE_OPTIONS
    Not read by \fBsanehosts\fR: the options \fIsanehosts\-serve.service\fR gives \fBserve\fR, set in
    \fI/etc/default/sanehosts\fR.

    """#

  /// FILES: the data directory's files, the hosts file, each server's default drop-in, the package's.
  static var files: String {
    var out = #"""
      .SH FILES
      .TP
      .I DATA
      The data directory: \fB\-\-data\-dir\fR, else \fI$SANEHOSTS_HOME\fR, else
      \fI$XDG_DATA_HOME/sanehosts\fR, else \fI~/.local/share/sanehosts\fR; \fI/var/lib/sanehosts\fR for
      the Debian package (owned by the user \fBsanehosts\fR).
      .TP
      .I DATA/sanehosts.sqlite
      The store: profiles, sources, allow and deny rules (with when each ends), updates, tests and the
      registry (with its \fI\-wal\fR and \fI\-shm\fR files).
      .TP
      .I DATA/lists/
      The last good copy of each source.
      .TP
      .I DATA/profiles/
      Each profile's compiled block set.
      .TP
      .I DATA/staging/
      A running update's work, removed when it ends; \fIDATA/update.lock\fR is held meanwhile.
      .TP
      .I DATA/applied.json
      The apply ledger: what SaneHosts last wrote to each file, with the profile and how it was applied
      (\fBreapply\fR applies every entry again); \fIDATA/loaded/\fR keeps each drop-in as its server last
      loaded it; \fIDATA/apply.lock\fR is held while applying.
      .TP
      .I DATA/backups/
      Backups of the files SaneHosts changed (\fBrestore\fR).
      .TP
      .I DATA/apply.request
      Applies the dashboard asked for and may not do itself; \fBreapply\fR, as root, does them first
      (the package's \fIsanehosts\-apply.path\fR watches it).
      .TP
      .I DATA/piholes.json
      The Pi-holes \fBpihole sync\fR made match a profile; \fBreapply\fR syncs them again.
      .TP
      .I DATA/reapply.pending
      The re-applies that failed, with their reasons: tried again by \fBallow expire\fR and the
      dashboard a minute later, then waiting twice as long each time (at most an hour);
      \fBreapply \-\-drop\-pending\fR drops them.
      .TP
      .I DATA/dashboard.token
      The dashboard's generated access token (mode 0600).
      .TP
      .I DATA/dashboard.json
      The dashboard's saved choices (probe, apply target); never a secret.
      .TP
      .I DATA/pihole\-password
      The Pi-hole password saved with \fBpihole \-\-save\-password\fR.
      .TP
      .I /etc/hosts
      The hosts file \fBapply\fR changes by default; only SaneHosts' marked section is written, the rest
      is kept byte for byte.

      """#
    for server in ServerTarget.allCases {
      out += ".TP\n.I \(escaped(server.defaultOutput))\n"
      out +=
        "The \\fB\(server.rawValue)\\fR target's drop-in by default (\\fBapply \\-\\-output\\fR chooses another).\n"
    }
    out += #"""
      .TP
      .I /etc/default/sanehosts
      The Debian package's options: \fBSANEHOSTS_SERVE_OPTIONS\fR (default
      \fB\-\-host 127.0.0.1 \-\-port 8080 \-\-hosts\-file /etc/hosts\fR), \fBSANEHOSTS_TOKEN\fR and
      \fBSANEHOSTS_APPLY_PLACES\fR. Restart \fIsanehosts\-serve.service\fR after a change.
      .TP
      .I /lib/systemd/system/sanehosts\-*.service\fR, \fI.timer\fR, \fI.path
      The Debian package's units: \fIsanehosts\-serve.service\fR (the dashboard, as \fBsanehosts\fR),
      \fIsanehosts\-apply.path\fR and \fIsanehosts\-apply.service\fR (\fBreapply\fR as root),
      \fIsanehosts\-update.timer\fR (daily \fBupdate\fR, then \fBreapply\fR), \fIsanehosts\-expire.timer\fR
      (\fBallow expire\fR every minute).
      .TP
      .I /etc/systemd/system/sanehosts\-update.service\fR, \fI.timer
      Written by \fBschedule install \-\-system\fR; they override the package's units of the same name
      (\fI~/.config/systemd/user/\fR with \fB\-\-user\fR).
      .TP
      .I /usr/lib/sysusers.d/sanehosts.conf
      The Debian package's system user \fBsanehosts\fR.

      """#
    return out
  }
}
