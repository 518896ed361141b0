;; List filtering with iota (the kind of primes): the primes below n by removing the
;; multiples of each prime from the list of candidates, over and over.
(define (primes-below n)
  (let loop ((candidates (iota (- n 2) 2)) (found '()))
    (if (null? candidates)
        (reverse found)
        (let ((p (car candidates)))
          (loop (filter (lambda (x) (not (= 0 (remainder x p)))) (cdr candidates))
                (cons p found))))))
(define (run times)
  (let loop ((i 0) (total 0))
    (if (= i times) total (loop (+ i 1) (+ total (length (primes-below 2000)))))))
(run 10)
