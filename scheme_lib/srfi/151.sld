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
    ;; (mapper (successor seed)) ... until (stop seed). Made as it goes, in integers the
    ;; loop passes on (a re-entered continuation goes on from its own run's bits): the
    ;; bits from BASE on in WORD (under word-bits of them, so adding one is cheap), each
    ;; full word added to N (adding each bit to N would be quadratic in its length).
    ;; TOP is the bit past the word: 2^word-bits, less in the word that reaches max-bits.
    (define (bitwise-unfold stop mapper successor seed)
      (check-procedure 'bitwise-unfold stop)
      (check-procedure 'bitwise-unfold mapper)
      (check-procedure 'bitwise-unfold successor)
      (let loop ((seed seed) (n 0) (word 0) (bit 1) (top (word-top 0)) (base 0))
        (if (stop seed)
            (+ n (arithmetic-shift word base))
            (let ((word (if (mapper seed) (+ word bit) word)) (bit (+ bit bit)))
              (cond ((not (= bit top)) (loop (successor seed) n word bit top base))
                    ((< (+ base word-bits) max-bits)
                     (let ((base (+ base word-bits)))
                       (loop (successor seed) (+ n (arithmetic-shift word (- base word-bits)))
                             0 1 (word-top base) base)))
                    ;; max-bits bits made: one more is too many
                    ((stop (successor seed)) (+ n (arithmetic-shift word base)))
                    (else (too-many-bits 'bitwise-unfold)))))))

    (define word-bits 256)

    (define (word-top base) (expt 2 (min word-bits (- max-bits base))))))
