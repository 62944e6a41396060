import Foundation
import GRDB

extension Store {
  /// The schema, one named migration per shipped change. Never edit a migration once it has shipped:
  /// add a new one.
  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1: sources, names, profiles, rules, update runs") { db in
      try db.execute(sql: version1Schema)
    }
    migrator.registerMigration("v1: the default profile") { db in
      // Plain SQL: a migration must mean the same forever, whatever the app's types become.
      try db.execute(
        sql: "INSERT INTO profile (name, summary, isActive, createdAt) VALUES (?, ?, 1, ?)",
        arguments: ["default", "Created with the store.", Date()])
    }
    migrator.registerMigration("v2: blocker test runs and custom test domains") { db in
      try db.execute(
        sql: """
          CREATE TABLE testRun (
            id INTEGER PRIMARY KEY,
            startedAt DATETIME NOT NULL,
            probe TEXT NOT NULL,
            target TEXT NOT NULL,
            milliseconds INTEGER NOT NULL,
            blocked INTEGER NOT NULL,
            reachable INTEGER NOT NULL,
            inconclusive INTEGER NOT NULL,
            report BLOB NOT NULL
          );
          CREATE INDEX testRun_startedAt ON testRun(startedAt);
          CREATE TABLE testDomain (
            hostname TEXT PRIMARY KEY,
            category TEXT NOT NULL,
            provider TEXT NOT NULL,
            addedAt DATETIME NOT NULL
          ) WITHOUT ROWID;
          """)
    }
    migrator.registerMigration("v3: names live in each copy's block set file, not in SQLite") { db in
      // A copy's names are read from its block set file (written on the next update, or on first use).
      try db.execute(sql: "DROP TABLE IF EXISTS sourceName")
    }
    migrator.registerMigration("v4: list health: the previous copy, a held-back copy, the list's own date") { db in
      try db.execute(
        sql: """
          ALTER TABLE source ADD COLUMN previousCacheFile TEXT;
          ALTER TABLE source ADD COLUMN previousSha256 TEXT;
          ALTER TABLE source ADD COLUMN previousUnique INTEGER;
          ALTER TABLE source ADD COLUMN previousAccepted INTEGER;
          ALTER TABLE source ADD COLUMN previousChange DATETIME;
          ALTER TABLE source ADD COLUMN heldCopy TEXT;
          ALTER TABLE source ADD COLUMN headerDate DATETIME;
          """)
    }
    migrator.registerMigration("v5: mirrors, and where the current copy came from") { db in
      try db.execute(
        sql: """
          ALTER TABLE source ADD COLUMN mirrors TEXT;
          ALTER TABLE source ADD COLUMN servedFrom TEXT;
          """)
    }
    migrator.registerMigration("v6: a generation counted up by every write") { db in
      try db.execute(
        sql: """
          CREATE TABLE generation (value INTEGER NOT NULL);
          INSERT INTO generation (value) VALUES (1);
          """)
    }
    migrator.registerMigration("v7: a profile's fleet of replicas") { db in
      try db.execute(
        sql: """
          CREATE TABLE replica (
            id INTEGER PRIMARY KEY,
            profileID INTEGER NOT NULL REFERENCES profile(id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            feed TEXT NOT NULL,
            pihole TEXT,
            resolver TEXT,
            kind TEXT,
            addedAt DATETIME NOT NULL,
            UNIQUE (profileID, name COLLATE NOCASE)
          );
          """)
    }
    migrator.registerMigration(
      "v8: where a replica transfers from, its memory, what was last verified on it, the fleet's changes"
    ) {
      db in
      try db.execute(
        sql: """
          ALTER TABLE replica ADD COLUMN primaryAddress TEXT;
          ALTER TABLE replica ADD COLUMN verifiedAt DATETIME;
          ALTER TABLE replica ADD COLUMN verifiedFingerprint TEXT;
          ALTER TABLE replica ADD COLUMN verifiedSerial INTEGER;
          ALTER TABLE replica ADD COLUMN memoryMiB INTEGER;
          CREATE TABLE fleetChange (
            id INTEGER PRIMARY KEY,
            profileID INTEGER NOT NULL REFERENCES profile(id) ON DELETE CASCADE,
            fingerprint TEXT NOT NULL,
            serial INTEGER,
            added TEXT NOT NULL,
            removed TEXT NOT NULL,
            at DATETIME NOT NULL
          );
          CREATE INDEX fleetChangeProfile ON fleetChange(profileID, id);
          """)
    }
    migrator.registerMigration("v9: allow rules that end") { db in
      try db.execute(
        sql: """
          ALTER TABLE rule ADD COLUMN expiresAt DATETIME;
          CREATE INDEX ruleExpiry ON rule(expiresAt) WHERE expiresAt IS NOT NULL;
          """)
    }
    return migrator
  }

  /// The first schema (migration "v1: sources, names, profiles, rules, update runs"), as it shipped.
  static let version1Schema = """
    CREATE TABLE source (
      id INTEGER PRIMARY KEY,
      key TEXT NOT NULL UNIQUE,
      name TEXT NOT NULL,
      location TEXT NOT NULL UNIQUE,
      catalogID TEXT,
      format TEXT,
      category TEXT,
      addedAt DATETIME NOT NULL,
      etag TEXT,
      lastModified TEXT,
      sha256 TEXT,
      cacheFile TEXT,
      lastAttempt DATETIME,
      lastSuccess DATETIME,
      lastChange DATETIME,
      status TEXT NOT NULL DEFAULT 'new',
      message TEXT,
      bytes INTEGER,
      accepted INTEGER,
      "unique" INTEGER,
      duplicates INTEGER,
      rejected INTEGER,
      detectedFormat TEXT,
      findings TEXT
    );
    -- The names of each source's last good copy. Keyed by source first, so a source's names are
    -- replaced as one range; a lookup by name seeks once per source.
    CREATE TABLE sourceName (
      sourceID INTEGER NOT NULL REFERENCES source(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      PRIMARY KEY (sourceID, name)
    ) WITHOUT ROWID;
    CREATE TABLE profile (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL UNIQUE COLLATE NOCASE,
      summary TEXT,
      preset TEXT,
      isActive BOOLEAN NOT NULL DEFAULT 0,
      createdAt DATETIME NOT NULL
    );
    CREATE UNIQUE INDEX profile_one_active ON profile(isActive) WHERE isActive;
    CREATE TABLE profileSource (
      profileID INTEGER NOT NULL REFERENCES profile(id) ON DELETE CASCADE,
      sourceID INTEGER NOT NULL REFERENCES source(id) ON DELETE CASCADE,
      enabled BOOLEAN NOT NULL DEFAULT 1,
      position INTEGER NOT NULL,
      PRIMARY KEY (profileID, sourceID)
    );
    CREATE INDEX profileSource_source ON profileSource(sourceID);
    CREATE TABLE rule (
      id INTEGER PRIMARY KEY,
      profileID INTEGER NOT NULL REFERENCES profile(id) ON DELETE CASCADE,
      action TEXT NOT NULL CHECK (action IN ('allow', 'deny')),
      kind TEXT NOT NULL CHECK (kind IN ('exact', 'subdomains', 'wildcard', 'regex')),
      pattern TEXT NOT NULL,
      comment TEXT,
      addedAt DATETIME NOT NULL,
      UNIQUE (profileID, action, kind, pattern)
    );
    CREATE TABLE updateRun (
      id INTEGER PRIMARY KEY,
      profileID INTEGER REFERENCES profile(id) ON DELETE SET NULL,
      profileName TEXT NOT NULL,
      startedAt DATETIME NOT NULL,
      finishedAt DATETIME NOT NULL,
      forced BOOLEAN NOT NULL,
      outcome TEXT NOT NULL,
      updated INTEGER NOT NULL,
      unchanged INTEGER NOT NULL,
      failed INTEGER NOT NULL,
      names INTEGER NOT NULL,
      results TEXT NOT NULL
    );
    CREATE INDEX updateRun_profile ON updateRun(profileID, startedAt);
    CREATE TABLE compiledProfile (
      profileID INTEGER PRIMARY KEY REFERENCES profile(id) ON DELETE CASCADE,
      file TEXT NOT NULL,
      sha256 TEXT NOT NULL,
      names INTEGER NOT NULL,
      fingerprint TEXT NOT NULL,
      compiledAt DATETIME NOT NULL,
      ruleCounts TEXT NOT NULL
    );
    """
}
