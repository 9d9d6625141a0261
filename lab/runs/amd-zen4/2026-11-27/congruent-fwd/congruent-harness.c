/* A/B of fastcopy builds at 4K-congruent placements: src and dst at the same page offset.
   usage: h OFF N1,N2,... lib1 lib2 ...  -> per n, median ns/call per lib over 41 alternating batches */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
typedef void *(*cp)(void *, const void *, size_t);
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e9+t.tv_nsec;}
static int cmpd(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
int main(int argc,char**argv){
  size_t off=strtoul(argv[1],0,0); int nl=argc-3; cp f[8];
  for(int i=0;i<nl;i++){void*h=dlopen(argv[3+i],RTLD_NOW|RTLD_LOCAL); if(!h){fprintf(stderr,"%s\n",dlerror());return 1;} f[i]=(cp)dlsym(h,"fc_memcpy");}
  size_t R=1<<20; char*a=mmap(0,R,PROT_READ|PROT_WRITE,MAP_PRIVATE|MAP_ANONYMOUS,-1,0),*b=mmap(0,R,PROT_READ|PROT_WRITE,MAP_PRIVATE|MAP_ANONYMOUS,-1,0);
  memset(a,1,R);memset(b,2,R);
  char*s=a+off,*d=b+off;
  for(char*p=argv[2];*p;){size_t n=strtoul(p,&p,0); if(*p==',')p++;
    int reps=n<4096?4000:n<65536?1000:100; double t[8][41];
    for(int k=0;k<41;k++) for(int i=0;i<nl;i++){int j=(i+k)%nl; f[j](d,s,n); double t0=now(); for(int r=0;r<reps;r++) f[j](d,s,n); t[j][k]=(now()-t0)/reps;}
    printf("%7zu",n); double m0=0;
    for(int i=0;i<nl;i++){qsort(t[i],41,sizeof(double),cmpd); double m=t[i][20]; if(!i)m0=m; printf("  %8.1f",m); if(i)printf(" (%.3f)",m/m0);} printf("\n");
  }
  return 0;}
