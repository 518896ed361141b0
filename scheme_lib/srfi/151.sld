;; SRFI 151: bitwise operations on exact integers (also (scheme bitwise)).
;;
;; The operations on the integers themselves are native, in (srfi 151 core)
;; (harness/scheme/primitives/bitwise.py); the walks that call a procedure of the program
;; (bitwise-fold, bitwise-for-each, bitwise-unfold) are here, in Scheme, so they count
;; their steps, run in the sandbox and resume a continuation captured in the procedure
;; they call with nothing written for it. Each walks a list of the bits made in one
;; native pass (asking bit-set? for each bit of a big integer would be quadratic).
(define-library (srfi 151)
  (export
   ;; from (srfi 151 core)
   bitwise-not bitwise-and bitwise-ior bitwise-xor bitwise-eqv
   bitwise-nand bitwise-nor bitwise-andc1 bitwise-andc2 bitwise-orc1 bitwise-orc2
   arithmetic-shift bit-count integer-length bitwise-if
   bit-set? copy-bit bit-swap any-bit-set? every-bit-set? first-set-bit
   bit-field bit-field-any? bit-field-every? bit-field-clear bit-field-set
   bit-field-replace bit-field-replace-same bit-field-rotate bit-field-reverse
   bits->list bits->vector list->bits vector->bits bits make-bitwise-generator
   ;; written here
   bitwise-fold bitwise-for-each bitwise-unfold)
  (import (scheme base) (srfi 151 core) (harness checks))
  (begin
    ;; (proc bit acc) over the bits of I (booleans, least significant first, its
    ;; integer-length of them), from SEED.
    (define (bitwise-fold proc seed i)
      (check-procedure 'bitwise-fold proc)
      (let loop ((bits (integer-bits 'bitwise-fold i)) (acc seed))
        (if (pair? bits) (loop (cdr bits) (proc (car bits) acc)) acc)))

    (define (bitwise-for-each proc i)
      (check-procedure 'bitwise-for-each proc)
      (let loop ((bits (integer-bits 'bitwise-for-each i)))
        (when (pair? bits)
          (proc (car bits))
          (loop (cdr bits)))))

    ;; The integer whose bits, least significant first, are (mapper seed),
    ;; (mapper (successor seed)) ... until (stop seed). The bits are gathered in a list
    ;; (fresh pairs: a re-entered continuation sees the bits of its own run) and made an
    ;; integer once.
    (define (bitwise-unfold stop mapper successor seed)
      (check-procedure 'bitwise-unfold stop)
      (check-procedure 'bitwise-unfold mapper)
      (check-procedure 'bitwise-unfold successor)
      (let loop ((seed seed) (bits '()) (k 0))
        (cond ((stop seed) (list->bits (reverse bits)))
              ((= k max-bits) (too-many-bits 'bitwise-unfold))
              (else (let ((bit (mapper seed)))
                      (loop (successor seed) (cons bit bits) (+ k 1)))))))))
