(define text (let loop ((i 0) (acc '())) (if (= i 20000) (apply string-append acc) (loop (+ i 1) (cons "word " acc)))))
(length (string-split text #\space))
