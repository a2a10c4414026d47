filedesc://seed.arc 0.0.0.0 20080430204825 text/plain 73
1 0 htmltok seed
URL IP-address Archive-date Content-type Archive-length

http://example.org/a b 192.0.2.1 20080430204826 text/html 85
HTTP/1.1 200 OK
Content-Type: text/html
Transfer-Encoding: chunked

3
<p>
0


dns:example.org 192.0.2.1 20080430204827 text/dns 25
20080430204827
192.0.2.1

