extension LoadingProgress {
  /// The progress published while waiting to retry: "Retrying… (attempt 2 of 3)".
  ///
  /// Attempts are counted from 1 (the first try is attempt 1), so `attempt` is the attempt about to start.
  public static func retrying(attempt: Int, of maximumAttempts: Int) -> LoadingProgress {
    LoadingProgress(message: "Retrying… (attempt \(attempt) of \(maximumAttempts))")
  }
}
