import Apply
import BlockerTest
import Blocklists
import Store
import UseCases

/// What a web user can do about a warning or error, in the dashboard's terms: a page, a button or a
/// checkbox, never a command-line flag (the core's own wording is the command line's).
enum WebAdvice {
  /// An apply warning for the Apply page.
  static func text(_ warning: ApplyWarning) -> String {
    switch warning {
    case .notDownloaded(let source):
      "\(source) has no saved copy yet and is left out: press Update now on the Sources page."
    case .largeHostsFile(let names):
      "\(names.counted("name")): every lookup scans the whole hosts file. For this many, a DNS server answers faster: choose the dnsmasq (or unbound) target above."
    case .cannotBlock(let server, let what):
      "\(server) cannot block this: \(what)"
    case .formerDropIn(let path):
      "SaneHosts' earlier dnsmasq drop-in \(path) (which let HTTPS records through) is still loaded as configuration: delete that file and restart dnsmasq."
    case .drift, .rewrittenInPlace, .flushFailed, .notChecked, .reloadFailed, .pushFailed, .primaryReconfigure,
      .createdFolder:
      warning.description
    }
  }

  /// A status warning for the overview.
  static func text(_ warning: ProfileStatus.Warning) -> String {
    switch warning {
    case .noSources(let profile): "Profile \(profile) has no source yet: add lists on the Sources page."
    case .allDisabled: "Every source of the profile is disabled: tick one on the Sources page."
    case .failed(let source, let message):
      "\(source) failed at its last update (\(message ?? "no reason given")); its previous copy is used."
    case .neverDownloaded(let source): "\(source) has never been downloaded: press Update now on the Sources page."
    case .stale(let source, _, let days): "\(source) was last updated \(days) days ago."
    case .contentStale(let source, let staleness): "\(source) may be stale: \(staleness.description)."
    case .servedByMirror(let source, let mirror):
      "\(source) is served by its mirror \(mirror) only: its own URL failed at the last update; check whether the list has moved."
    case .heldBack(let source, let names, let previous):
      "\(source): a new copy with \(names.counted("name")) (the copy in use has \(previous.map { $0.grouped } ?? "more")) is held back as a suspicious shrink: compare and accept it on the Sources page."
    case .notAList(let source, let kind):
      switch kind {
      case .html: "\(source) looks like a web page (HTML), not a list: give the URL of the raw list."
      case .gzip, .zip: "\(source) is compressed (\(kind.rawValue)): give the URL of the uncompressed list."
      case .pdf: "\(source) is a PDF document, not a list: give the URL of the list itself."
      case .utf16: "\(source) is UTF-16 text: give the URL of a UTF-8 copy of the list."
      }
    case .notCompiled: "The profile has not been compiled yet: press Update now on the Sources page."
    case .changedSinceCompile:
      "Sources, rules or copies changed since the last compile: press Update now on the Sources page."
    case .weakTest: "The last blocker test scored weak: see the Test page for what was not blocked."
    case .reapplyPending(let pending):
      "A reapply is pending, \(pending.description). It is tried again by itself; to drop it, run sanehosts reapply --drop-pending --profile \(pending.profile)."
    }
  }

  /// What to do about an apply, preview or restore that failed.
  static func suggestion(for error: ApplyError) -> String? {
    switch error {
    case .missingDirectory:
      "Create the folder, or start the dashboard with a file in a folder that exists."
    case .notPermitted(let path, _, let isRoot):
      isRoot
        ? "The file system or a security policy refuses the change (a read-only mount, or the file's immutable attribute); start the dashboard with another file, or lift that first."
        : "The dashboard runs as a user who may not write \(path): start it as one who may (root, for /etc/hosts), or with another file."
    case .unreadable:
      "Check that the file exists and that the dashboard's user may read it."
    case .notRegularFile:
      "Start the dashboard with a regular file to write (a directory, device or pipe is never replaced)."
    case .brokenSection:
      "Edit the file so it holds at most one complete section (both marker lines), or restore a backup from the Backups table below."
    case .invalidContent:
      "Fix the file by hand, or restore a backup from the Backups table below, then apply again."
    case .invalidOutput:
      "Nothing was written. The reason names what failed in SaneHosts' own output: check the profile's rules on the Sources page."
    case .sectionEdited:
      "Lines you add belong outside the markers, where they are kept. To replace the section anyway, tick “Replace edits made by others” and apply again (the current file is backed up first)."
    case .changedMeanwhile:
      "Apply again."
    case .noSuchBackup(_, let known):
      known.isEmpty ? "There are no backups yet." : "Reload the page and pick one from the Backups table."
    case .writeFailed:
      error.recoverySuggestion
    case .nothingToApply(_, .noEnabledSource):
      "Add lists on the Sources page (or enable one there), then press Update now."
    case .nothingToApply(_, .noSavedCopy):
      "Press Update now on the Sources page first."
    }
  }

  /// The likely cause of a verification miss, with what to do from the dashboard.
  static func cause(_ miss: Verification.Miss) -> String {
    switch miss.kind {
    case .resolverSkipsFile:
      "the system resolver does not read this file (it reads /etc/hosts), or a caching resolver (systemd-resolved, nscd) answers first: wait for its answers to expire, then apply again to verify"
    case .systemCache:
      "a cached answer (systemd-resolved, nscd) that outlived the flush: wait for it to expire, then apply again to verify"
    case .notReloaded:
      "the server was not reloaded (the dashboard writes the file but does not reload servers): reload it, for example with systemctl reload, then apply again to verify"
    case .notLoaded:
      "the server does not load this file: add the configuration line shown after its first apply, and check the server's log"
    case .stillBlocked:
      "still blocked: the server was not reloaded, or another list or drop-in blocks it"
    case .removedStillBlocked:
      "taken out of the list but still answered as blocked: the server was not reloaded, or another list or drop-in blocks it"
    case .noAnswer, .serverCache, .answeredElsewhere:
      miss.cause
    }
  }
}
