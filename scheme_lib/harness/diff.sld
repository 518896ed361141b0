;; (harness diff): the same as (chibi diff).
(define-library (harness diff)
  (export lcs lcs-with-positions diff write-diff diff->string
          write-edits edits->string edits->string/color
          write-line-diffs write-line-diffs/color write-char-diffs write-char-diffs/color)
  (import (chibi diff)))
